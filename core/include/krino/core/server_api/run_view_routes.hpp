#pragma once
// What the web UI's run page reads besides the run itself (docs/server.md):
//   GET /api/v1/runs/{runId}/items?status=&evaluator=&evaluatorStatus=&q=&after=&size=
//       -> {content, size, numberOfElements, nextAfter, matchCount}: a keyset page of filtered items
//   GET /api/v1/runs/{runId}/evaluators -> {evaluators: [{name, count, passed, passRate, meanScore,
//       scoreCi, histogram}]}
#include "krino/core/http_server/router.hpp"
#include "krino/core/server_api/auth.hpp"
#include "krino/core/store/store.hpp"

namespace krino::core::server_api {

// `store` and `auth` must outlive the router. Both need Access::read.
void add_run_view_routes(http_server::Router& router, store::Store& store, const Authenticator& auth);

}  // namespace krino::core::server_api
