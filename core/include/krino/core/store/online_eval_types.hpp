#pragma once
// Online evaluation of production traces: a tenant's trace eval rules (which spans to score, with
// which judge settings, through which LLM connection, at what sampling rate) and the evaluations
// the judge's workers write. A rule's match is queued at ingestion as a job of kind "online_eval"
// (job_types.hpp) whose dedupe key names the rule and the trace (and span), so an export sent
// again never queues a second one.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core::store {

struct NewTraceEvalRule {
  std::string name;
  std::optional<std::string> project = std::nullopt;    // the span's derived project must equal it
  std::optional<std::string> span_name = std::nullopt;  // a glob (`*`, `?`) over the span's name
  std::optional<std::string> attribute_key = std::nullopt;    // the span has this attribute ...
  std::optional<std::string> attribute_value = std::nullopt;  // ... equal to this JSON value (text)
  std::string target = "TRACE";  // TRACE: score the trace's root input and output; SPAN: the span's
  std::string connection_id;
  std::string evaluator_name;
  std::string config;  // the judge evaluator's settings, JSON text (server_api::judge_evaluator_json)
  double sampling_rate = 1.0;
  bool enabled = true;
};

struct TraceEvalRule : NewTraceEvalRule {
  std::string id;
  std::optional<std::string> tenant;
  std::int64_t matched = 0;      // (rule, trace or span) matches seen at ingestion
  std::int64_t enqueued = 0;     // of them, evaluations queued (each once)
  std::int64_t sampled_out = 0;  // of them, left out by the sampling rate
  std::string created_at;
  std::string updated_at;
};

inline constexpr std::string_view kOnlineEvalKind = "online_eval";

// One rule's match found at ingestion. `span_id` is empty for a TRACE rule.
struct OnlineEvalMatch {
  std::string rule_id;
  std::string trace_id;
  std::string span_id;
  bool sampled = true;  // false: counted as sampled out, nothing queued
  std::int64_t available_at_ms = 0;
};

struct OnlineEvalEnqueued {
  std::int64_t enqueued = 0;  // new jobs (a match queued before is not queued again)
  std::int64_t sampled_out = 0;
};

// The job's payload: {"ruleId", "traceId", "spanId" (null for TRACE)}.
std::string online_eval_payload(const OnlineEvalMatch& match);
std::string online_eval_dedupe_key(const OnlineEvalMatch& match);

struct OnlineEvaluation {
  std::string rule_id;
  std::string rule_name;
  std::string evaluator_name;
  std::string trace_id;
  std::optional<std::string> span_id = std::nullopt;  // none: the whole trace was scored
  std::optional<double> score = std::nullopt;         // 0..1
  bool success = false;
  std::optional<std::string> reason = std::nullopt;
  std::optional<std::string> error = std::nullopt;  // set: no score, for this cause
  std::optional<double> cost_usd = std::nullopt;
  std::int64_t judged_at_ms = 0;
};


}  // namespace krino::core::store
