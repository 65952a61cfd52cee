#pragma once
// Trace eval rules: which production spans the server judge scores online (docs/server.md,
// "Online evaluation of traces").
//   POST   /api/v1/trace-eval-rules       {name, project?, spanName?, attribute? {key, value?}, target: TRACE | SPAN,
//                                         connectionId, evaluatorName, criteria, evaluationParams?, minScore?,
//                                         maxScore?, threshold?, samplingRate? (0..1, default 1), enabled? (default true)}
//                                         -> 201 + Location
//   GET    /api/v1/trace-eval-rules       every visible rule, by name
//   GET    /api/v1/trace-eval-rules/{id}  the rule with its counters (matched, enqueued, sampledOut)
//   PUT    /api/v1/trace-eval-rules/{id}  the same body; counters are kept
//   DELETE /api/v1/trace-eval-rules/{id}  -> 204
// The judge settings are the judge job's (judge_evaluator.hpp), read and stored by the same code.
// Every route needs an EDITOR or ADMIN key once keys are in use (a rule spends money), as LLM
// connections do; a rule is its maker's tenant's.
#include "krino/core/http_server/router.hpp"
#include "krino/core/server_api/auth.hpp"
#include "krino/core/store/store.hpp"

#include <functional>

namespace krino::core::server_api {

// `changed` is called after each write (the ingestion matcher reads the rules again).
void add_trace_eval_rule_routes(http_server::Router& router, store::Store& store, const Authenticator& auth, std::function<void()> changed = {});

}  // namespace krino::core::server_api
