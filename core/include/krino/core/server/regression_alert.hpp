#pragma once
// What decides a regression alert and what it says. An ended run is judged exactly as
// POST /experiments/{id}/gate judges it with no baseline named: in the run's own tenant scope,
// against the newest successful run before it on the same dataset version and git branch. The
// alert fires when, and only when, that verdict is FAIL (a significant pass-rate drop, a
// significantly regressed evaluator, or a severe drop on some item), so an alert and the CI gate
// never disagree. NO_BASELINE and INCONCLUSIVE do not alert.
#include "krino/core/server_api/run_comparison.hpp"
#include "krino/core/store/alert_types.hpp"

#include <optional>
#include <string>

namespace krino::core::server {

// The alert's JSON body when the run's gate verdict is FAIL, else nullopt. Throws StoreError when
// the run or its experiment is gone (nothing to alert on).
std::optional<std::string> regression_alert(store::Store& store, server_api::RunComparisons& comparisons, const store::AlertCheck& check);

// The body of spec §10.4: projectName, experimentId, experimentName, runId, baselineRunId,
// baselinePassRate, candidatePassRate, passRateDelta, regressedCaseCount; then krino's gateStatus
// and reasons (why it failed, one line each). Numbers as the gate's answer writes them.
std::string alert_payload(const server_api::GateOutcome& outcome);

}  // namespace krino::core::server
