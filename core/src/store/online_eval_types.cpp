#include "krino/core/store/online_eval_types.hpp"

namespace krino::core::store {

std::string online_eval_payload(const OnlineEvalMatch& match) {
  // Ids are UUIDs and hex: no character to escape.
  std::string out = "{\"ruleId\":\"";
  out.append(match.rule_id).append("\",\"traceId\":\"").append(match.trace_id).append("\",\"spanId\":");
  if (match.span_id.empty()) out.append("null");
  else out.append("\"").append(match.span_id).append("\"");
  out.append("}");
  return out;
}

std::string online_eval_dedupe_key(const OnlineEvalMatch& match) {
  std::string key(kOnlineEvalKind);
  key.append(":").append(match.rule_id).append(":").append(match.trace_id);
  if (!match.span_id.empty()) key.append(":").append(match.span_id);
  return key;
}

}  // namespace krino::core::store
