#include "krino/core/usage/judge_usage.hpp"

namespace krino::core {

void add_call(JudgeUsage& usage, const JudgeCallRecord& call) {
  ++usage.calls;
  if (call.cached) ++usage.cached_calls;
  if (!call.ok) ++usage.failed_calls;
  usage.retries += static_cast<uint64_t>(call.retries);
  if (call.repaired) ++usage.repairs;
  if (call.cached) {  // a cache hit spent nothing
    JudgeUsage::add_optional(usage.cost_usd, std::optional<double>(0.0));
    return;
  }
  JudgeUsage::add_optional(usage.tokens_in, call.tokens_in);
  JudgeUsage::add_optional(usage.tokens_out, call.tokens_out);
  JudgeUsage::add_optional(usage.cost_usd, call.cost_usd);
  if ((call.tokens_in || call.tokens_out) && !call.cost_usd) usage.unpriced_tokens = true;
}

}  // namespace krino::core
