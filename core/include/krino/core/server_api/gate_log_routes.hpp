#pragma once
// The log of the gate verdicts the server gave (POST .../gate and the alert checks), newest first,
// for the dashboard's failing gates (docs/server.md):
//   GET /api/v1/gates?status=&limit=                         -> {gates: [...]}
//   GET /api/v1/experiments/{experimentId}/gates?status=&limit= -> {gates: [...]}
#include "krino/core/http_server/router.hpp"
#include "krino/core/server_api/auth.hpp"
#include "krino/core/store/store.hpp"

namespace krino::core::server_api {

// `store` and `auth` must outlive the router. Both need Access::read.
void add_gate_log_routes(http_server::Router& router, store::Store& store, const Authenticator& auth);

}  // namespace krino::core::server_api
