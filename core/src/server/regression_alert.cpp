#include "krino/core/server/regression_alert.hpp"

#include "krino/core/gate/gate_verdict.hpp"

#include <krino/event/values.hpp>
#include <krino/json_text.hpp>

namespace krino::core::server {

std::string alert_payload(const server_api::GateOutcome& outcome) {
  using krino::event::append_key;
  const server_api::RunComparison& compared = *outcome.compared;
  const Comparison& comparison = compared.comparison;
  std::string out = "{\"projectName\":";
  krino::json::append_json_string(out, compared.candidate.project_name);
  append_key(out, "experimentId");
  krino::json::append_json_string(out, compared.candidate.experiment_id);
  append_key(out, "experimentName");
  krino::json::append_json_string(out, compared.candidate.experiment_name);
  append_key(out, "runId");
  krino::json::append_json_string(out, compared.candidate.id);
  append_key(out, "baselineRunId");
  krino::json::append_json_string(out, compared.baseline.id);
  append_key(out, "baselinePassRate");
  krino::json::append_double(out, comparison.baseline_pass_rate);
  append_key(out, "candidatePassRate");
  krino::json::append_double(out, comparison.candidate_pass_rate);
  append_key(out, "passRateDelta");
  krino::json::append_double(out, comparison.pass_rate_delta);
  append_key(out, "regressedCaseCount");
  krino::event::append_integer(out, comparison.count(ChangeStatus::regressed));
  append_key(out, "gateStatus");
  krino::json::append_json_string(out, gate_status_name(outcome.verdict.status));
  append_key(out, "reasons");
  out += '[';
  for (std::size_t i = 0; i < outcome.verdict.reasons.size(); ++i) {
    if (i > 0) out += ',';
    krino::json::append_json_string(out, outcome.verdict.reasons[i]);
  }
  out += "]}";
  return out;
}

std::optional<std::string> regression_alert(store::Store& store, server_api::RunComparisons& comparisons, const store::AlertCheck& check) {
  const store::Scope scope{check.tenant};
  const auto run = store.run(scope, check.run_id);
  if (!run) throw store::StoreError(store::StoreError::Kind::not_found, "no run " + check.run_id);
  server_api::GateRequest request;
  request.experiment_id = run->experiment_id;
  request.candidate_run_id = run->id;
  request.baseline_branch = run->git_branch;  // the gate's baseline, on the run's own branch
  const server_api::GateOutcome outcome = comparisons.gate(scope, request);
  if (outcome.verdict.status != GateStatus::fail || !outcome.compared) return std::nullopt;
  return alert_payload(outcome);
}

}  // namespace krino::core::server
