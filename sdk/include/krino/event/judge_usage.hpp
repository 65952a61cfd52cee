// What judge calls cost: the `judge` member of an item_finished event (and, per evaluator, its
// `byEvaluator`), and the totals of run and experiment summaries. Header-only.
#ifndef KRINO_EVENT_JUDGE_USAGE_HPP
#define KRINO_EVENT_JUDGE_USAGE_HPP

#include <krino/event/values.hpp>

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace krino::event {

struct JudgeUsage {
  uint64_t calls = 0;
  uint64_t cached_calls = 0;
  uint64_t failed_calls = 0;
  uint64_t retries = 0;  // attempts made again after a failed attempt
  uint64_t repairs = 0;  // calls whose JSON reply needed the repair round
  std::optional<int64_t> tokens_in;
  std::optional<int64_t> tokens_out;
  std::optional<double> cost_usd;  // null while no call had a known price; unrounded
  // Whether a call had token counts without a known price: the item then counts as tokenized but
  // not priced in the "N/M items priced" coverage.
  bool unpriced_tokens = false;

  bool empty() const { return calls == 0; }
  bool tokenized() const { return tokens_in.has_value() || tokens_out.has_value(); }
  bool priced() const { return tokenized() && !unpriced_tokens && cost_usd.has_value(); }

  void merge(const JudgeUsage& other) {
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

  template <class T>
  static void add_optional(std::optional<T>& total, const std::optional<T>& part) {
    if (part) total = total.value_or(T{}) + *part;
  }
};

// Which form a JudgeUsage is written in. A summary carries the cost rounded to six places; an
// item also carries what an exact roll-up needs (`krino merge` rebuilds run totals from item
// lines): the unrounded `costUsdExact` and `unpricedTokens`.
enum class JudgeUsageForm { summary, item };

inline void append_judge_usage(std::string& out, const JudgeUsage& u, JudgeUsageForm form) {
  out += "{\"calls\":";
  append_integer(out, u.calls);
  append_key(out, "cachedCalls");
  append_integer(out, u.cached_calls);
  append_key(out, "failedCalls");
  append_integer(out, u.failed_calls);
  append_key(out, "retries");
  append_integer(out, u.retries);
  append_key(out, "repairs");
  append_integer(out, u.repairs);
  append_key(out, "tokensIn");
  append_optional(out, u.tokens_in);
  append_key(out, "tokensOut");
  append_optional(out, u.tokens_out);
  append_key(out, "costUsd");
  append_optional(out, u.cost_usd ? std::optional<double>(round6(*u.cost_usd)) : std::nullopt);
  if (form == JudgeUsageForm::item) {
    append_key(out, "costUsdExact");
    append_optional(out, u.cost_usd);
    append_key(out, "unpricedTokens");
    append_bool(out, u.unpriced_tokens);
  }
  out += '}';
}

// The same members as a document, for summaries that are built as documents.
inline boost::json::object judge_usage_json(const JudgeUsage& u, JudgeUsageForm form) {
  auto optional_value = [](const auto& v) { return v ? boost::json::value(*v) : boost::json::value(nullptr); };
  boost::json::object o{{"calls", u.calls},
                        {"cachedCalls", u.cached_calls},
                        {"failedCalls", u.failed_calls},
                        {"retries", u.retries},
                        {"repairs", u.repairs},
                        {"tokensIn", optional_value(u.tokens_in)},
                        {"tokensOut", optional_value(u.tokens_out)},
                        {"costUsd", u.cost_usd ? boost::json::value(round6(*u.cost_usd)) : boost::json::value(nullptr)}};
  if (form == JudgeUsageForm::item) {
    o["costUsdExact"] = optional_value(u.cost_usd);
    o["unpricedTokens"] = u.unpriced_tokens;
  }
  return o;
}

// Reads either form. The exact cost wins when present; files written before `costUsdExact`
// existed have only the rounded one. `member` names the object in errors.
inline JudgeUsage read_judge_usage(std::string_view object, std::string_view member = "judge") {
  return within(member, [&] {
    JudgeUsage u;
    std::optional<double> rounded_cost;
    std::optional<double> exact_cost;
    krino::json::for_each_member(object, [&](std::string_view key, std::string_view value) {
      using krino::json::key_equals;
      if (key_equals(key, "calls")) u.calls = read_whole<uint64_t>(value, "calls").value_or(0);
      else if (key_equals(key, "cachedCalls")) u.cached_calls = read_whole<uint64_t>(value, "cachedCalls").value_or(0);
      else if (key_equals(key, "failedCalls")) u.failed_calls = read_whole<uint64_t>(value, "failedCalls").value_or(0);
      else if (key_equals(key, "retries")) u.retries = read_whole<uint64_t>(value, "retries").value_or(0);
      else if (key_equals(key, "repairs")) u.repairs = read_whole<uint64_t>(value, "repairs").value_or(0);
      else if (key_equals(key, "tokensIn")) u.tokens_in = read_whole<int64_t>(value, "tokensIn");
      else if (key_equals(key, "tokensOut")) u.tokens_out = read_whole<int64_t>(value, "tokensOut");
      else if (key_equals(key, "costUsd")) rounded_cost = read_number(value, "costUsd");
      else if (key_equals(key, "costUsdExact")) exact_cost = read_number(value, "costUsdExact");
      else if (key_equals(key, "unpricedTokens")) u.unpriced_tokens = read_bool(value, "unpricedTokens").value_or(false);
      return true;
    });
    u.cost_usd = exact_cost ? exact_cost : rounded_cost;
    return u;
  });
}

}  // namespace krino::event

#endif  // KRINO_EVENT_JUDGE_USAGE_HPP
