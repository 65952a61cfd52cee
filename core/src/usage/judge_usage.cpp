#include "krino/core/usage/judge_usage.hpp"

#include "krino/core/common/round6.hpp"

#include <boost/json.hpp>

namespace krino::core {
namespace {

template <class T>
void add_optional(std::optional<T>& total, const std::optional<T>& part) {
  if (part) total = total.value_or(T{}) + *part;
}

template <class T>
boost::json::value optional_json(const std::optional<T>& v) {
  return v ? boost::json::value(*v) : boost::json::value(nullptr);
}

}  // namespace

void JudgeUsage::add(const JudgeCallRecord& call) {
  ++calls;
  if (call.cached) ++cached_calls;
  if (!call.ok) ++failed_calls;
  retries += static_cast<uint64_t>(call.retries);
  if (call.repaired) ++repairs;
  if (call.cached) {  // a cache hit spent nothing
    add_optional(cost_usd, std::optional<double>(0.0));
    return;
  }
  add_optional(tokens_in, call.tokens_in);
  add_optional(tokens_out, call.tokens_out);
  add_optional(cost_usd, call.cost_usd);
  if ((call.tokens_in || call.tokens_out) && !call.cost_usd) unpriced_tokens = true;
}

void JudgeUsage::merge(const JudgeUsage& other) {
  calls += other.calls;
  cached_calls += other.cached_calls;
  failed_calls += other.failed_calls;
  retries += other.retries;
  repairs += other.repairs;
  add_optional(tokens_in, other.tokens_in);
  add_optional(tokens_out, other.tokens_out);
  add_optional(cost_usd, other.cost_usd);
  unpriced_tokens = unpriced_tokens || other.unpriced_tokens;
}

JudgeUsage JudgeUsage::minus(const JudgeUsage& earlier) const {
  JudgeUsage d;
  d.calls = calls - earlier.calls;
  d.cached_calls = cached_calls - earlier.cached_calls;
  d.failed_calls = failed_calls - earlier.failed_calls;
  d.retries = retries - earlier.retries;
  d.repairs = repairs - earlier.repairs;
  if (tokens_in) d.tokens_in = *tokens_in - earlier.tokens_in.value_or(0);
  if (tokens_out) d.tokens_out = *tokens_out - earlier.tokens_out.value_or(0);
  if (cost_usd) d.cost_usd = *cost_usd - earlier.cost_usd.value_or(0.0);
  d.unpriced_tokens = unpriced_tokens && !earlier.unpriced_tokens;
  return d;
}

boost::json::object JudgeUsage::to_json() const {
  return boost::json::object{{"calls", calls},
                             {"cachedCalls", cached_calls},
                             {"failedCalls", failed_calls},
                             {"retries", retries},
                             {"repairs", repairs},
                             {"tokensIn", optional_json(tokens_in)},
                             {"tokensOut", optional_json(tokens_out)},
                             {"costUsd", cost_usd ? boost::json::value(round6(*cost_usd)) : boost::json::value(nullptr)}};
}

boost::json::object JudgeUsage::to_item_json() const {
  boost::json::object o = to_json();
  o["costUsdExact"] = optional_json(cost_usd);
  o["unpricedTokens"] = unpriced_tokens;
  return o;
}

}  // namespace krino::core
