#pragma once
// The server's regression gate and run diff (spec §8, §9), with the Dokimos server's paths:
//   POST /api/v1/experiments/{experimentId}/gate  {candidateRunId, baselineRunId?, baselineBranch?}
//        -> 200 with the verdict (PASS, FAIL, NO_BASELINE or INCONCLUSIVE) in the body
//   GET  /api/v1/experiments/{experimentId}/runs/{candidateRunId}/diff?baselineRunId=&status=&page=&size=
//        -> 200 {summary, cases: a page of items}
// Both need ended runs of the experiment (404 for a run that is not, 409 for one still running).
// The gate is a POST, so it needs a key that may write; it changes nothing but the log of verdicts
// (GET /api/v1/gates, gate_log_routes.hpp).
#include "krino/core/http_server/router.hpp"
#include "krino/core/server_api/auth.hpp"
#include "krino/core/server_api/run_comparison.hpp"
#include "krino/core/store/store.hpp"

namespace krino::core::server_api {

// `store`, `comparisons` and `auth` must outlive the router.
void add_comparison_routes(http_server::Router& router, store::Store& store, RunComparisons& comparisons, const Authenticator& auth);

}  // namespace krino::core::server_api
