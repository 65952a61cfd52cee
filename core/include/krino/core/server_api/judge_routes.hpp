#pragma once
// The server judge on a run (spec §13.3, §13.4):
//   POST /api/v1/runs/{runId}/judge-jobs  {connectionId, evaluatorName, criteria, evaluationParams?, minScore?, maxScore?, threshold?}
//        -> 201 + Location: the job, QUEUED; the run is EVALUATING until every judge job on it ends
//   GET  /api/v1/runs/{runId}/judge-jobs                              every judge job of the run, oldest first
//   GET  /api/v1/runs/{runId}/judge-jobs/{jobId}/results?after=&size=  its judgments by item position:
//        score and reason, or the error that kept an item from being judged
//   GET  /api/v1/runs/{runId}/alignment (or /agreement)  judge-human agreement per evaluator, with the
//        confusion matrix and Cohen's kappa, and the agreement between each pair of reviewers
// The work itself is done by the judge workers (server/judge_page_worker.hpp), in any replica.
#include "krino/core/http_server/router.hpp"
#include "krino/core/server_api/auth.hpp"
#include "krino/core/store/store.hpp"

#include <functional>

namespace krino::core::server_api {

struct JudgeRouteOptions {
  std::int64_t page_size = 50;     // items per page job (KRINO_JUDGE_PAGE_SIZE's default in the reference)
  std::int64_t max_attempts = 3;   // claims of one page before its items are given up as errors
  std::function<void()> enqueued;  // wakes this replica's workers; may be empty
};

void add_judge_routes(http_server::Router& router, store::Store& store, const Authenticator& auth, JudgeRouteOptions options = {});

// The agreement document for the run's verdicts and annotations (what /alignment answers).
std::string agreement_json(const std::string& run_id, const store::AgreementInput& input);

}  // namespace krino::core::server_api
