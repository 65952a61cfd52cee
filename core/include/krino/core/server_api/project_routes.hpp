#pragma once
// The read and delete endpoints above runs, with the Dokimos server's paths and payloads:
//   GET    /api/v1/projects                               [{id, name, experimentCount, createdAt, latestActivity}]
//   GET    /api/v1/projects/{projectName}/experiments     [{id, name, createdAt, latestRun}]
//   GET    /api/v1/experiments/{experimentId}/runs?limit= [RunSummary], newest first
//   GET    /api/v1/experiments/{experimentId}/trends?limit=20
//   DELETE /api/v1/runs/{runId}, /api/v1/experiments/{experimentId}, /api/v1/projects/{projectName} -> 204
#include "krino/core/http_server/router.hpp"
#include "krino/core/server_api/auth.hpp"
#include "krino/core/store/store.hpp"

namespace krino::core::server_api {

// `store` and `auth` must outlive the router. Reads need Access::read, the rest Access::write.
void add_project_routes(http_server::Router& router, store::Store& store, const Authenticator& auth);

}  // namespace krino::core::server_api
