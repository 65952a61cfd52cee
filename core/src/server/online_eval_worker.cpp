#include "krino/core/server/online_eval_worker.hpp"

#include <krino/json_parse.hpp>

#include <boost/json.hpp>

#include <chrono>

namespace krino::core::server {

namespace {

struct OnlineEvalPayload {
  std::string rule_id;
  std::string trace_id;
  std::optional<std::string> span_id;
};

OnlineEvalPayload read_online_payload(const std::string& payload) {
  const boost::json::value value = krino::json::parse(payload);
  const boost::json::object& object = value.as_object();
  OnlineEvalPayload out{std::string(object.at("ruleId").as_string()), std::string(object.at("traceId").as_string()), std::nullopt};
  if (const auto* span = object.if_contains("spanId"); span && span->is_string()) out.span_id = std::string(span->get_string());
  return out;
}

// What the judge is shown, in a run item's shape (judge_evaluator.hpp reads inputs.input and
// actualOutputs.output); a field the trace or span lacks is left out, for the prompt to refuse.
std::string subject_document(const std::optional<std::string>& input, const std::optional<std::string>& output) {
  boost::json::object document;
  if (input) document["inputs"] = boost::json::object{{"input", *input}};
  if (output) document["actualOutputs"] = boost::json::object{{"output", *output}};
  return boost::json::serialize(document);
}

}  // namespace

OnlineEvalWorker::OnlineEvalWorker(store::Store& store, JudgePageWorker& judge, server_api::OnlineEvalCounters& counters,
                                   std::function<std::int64_t()> now_ms)
    : store_(store), judge_(judge), counters_(counters), now_ms_(std::move(now_ms)) {}

void OnlineEvalWorker::operator()(const store::ClaimedJob& job, const Cancellation& lost) {
  const OnlineEvalPayload payload = read_online_payload(job.payload);
  const store::Scope scope{job.tenant};
  const auto rule = store_.trace_eval_rule(scope, payload.rule_id);
  if (!rule) {  // deleted since the match: nothing to score for anyone
    store_.complete_job(job.id, job.lease_token);
    return;
  }
  store::OnlineEvaluation evaluation;
  evaluation.rule_id = rule->id;
  evaluation.rule_name = rule->name;
  evaluation.evaluator_name = rule->evaluator_name;
  evaluation.trace_id = payload.trace_id;
  evaluation.span_id = payload.span_id;
  const auto finish = [&] {
    evaluation.judged_at_ms = now_ms_ ? now_ms_()
                                      : std::chrono::duration_cast<std::chrono::milliseconds>(
                                            std::chrono::system_clock::now().time_since_epoch())
                                            .count();
    if (lost.requested() || !store_.record_online_evaluation(job.id, job.lease_token, job.tenant, evaluation)) return;
    ++(evaluation.error ? counters_.errors : counters_.scored);
  };
  if (job.exhausted) {
    evaluation.error = "not judged: given up after " + std::to_string(job.max_attempts) + " attempts (last: " +
                       job.last_error.value_or("no reason recorded") + ")";
    finish();
    return;
  }
  const auto trace = store_.trace(scope, payload.trace_id);
  if (!trace) {  // deleted by retention before its turn
    evaluation.error = "not judged: the trace is no longer stored";
    finish();
    return;
  }
  std::optional<std::string> input = trace->summary.input;
  std::optional<std::string> output = trace->summary.output;
  if (payload.span_id) {
    const auto span = std::find_if(trace->spans.begin(), trace->spans.end(), [&](const store::SpanRecord& s) { return s.span_id == *payload.span_id; });
    if (span == trace->spans.end()) {
      evaluation.error = "not judged: span " + *payload.span_id + " is no longer stored";
      finish();
      return;
    }
    input = span->input;
    output = span->output;
  }
  server_api::JudgeEvaluator evaluator;
  try {
    evaluator = server_api::judge_evaluator_from_json(rule->config);
  } catch (const std::exception& error) {
    evaluation.error = std::string("not judged: ") + error.what();
    finish();
    return;
  }
  const std::vector<std::string> documents{subject_document(input, output)};
  JudgePageWorker::Judgment judgment = judge_.judge(job.tenant, rule->connection_id, evaluator, documents, {}, lost);
  if (!judgment.unusable.empty()) {
    evaluation.error = "not judged: " + judgment.unusable;
  } else {
    const store::JudgeVerdict& verdict = judgment.verdicts.front();
    evaluation.score = verdict.score;
    evaluation.success = verdict.success;
    evaluation.reason = verdict.reason;
    evaluation.error = verdict.error;
    evaluation.cost_usd = verdict.cost_usd;
  }
  finish();
}

}  // namespace krino::core::server
