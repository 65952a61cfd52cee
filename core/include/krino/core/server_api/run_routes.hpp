#pragma once
// The ingestion and run endpoints of the results server, with the Dokimos server's paths and
// payloads so that its reporter can report to krino unchanged:
//   POST  /api/v1/projects/{projectName}/runs  {experimentName, metadata}  -> 201 {runId}
//   POST  /api/v1/runs/{runId}/items           {items: [...]}, Idempotency-Key -> 201 {status: "ok"}
//   PATCH /api/v1/runs/{runId}                 {status}                    -> 200 {status: "updated"}
//   GET   /api/v1/runs/{runId}?page=&size=     the run, its totals and a page of items
#include "krino/core/http_server/router.hpp"
#include "krino/core/server_api/auth.hpp"
#include "krino/core/server_api/ingest_counters.hpp"
#include "krino/core/store/store.hpp"

namespace krino::core::server_api {

// `store`, `auth` and `counters` must outlive the router. Reads need Access::read, the rest Access::write.
void add_run_routes(http_server::Router& router, store::Store& store, const Authenticator& auth, IngestCounters& counters);

}  // namespace krino::core::server_api
