#pragma once
// API key management (ADMIN; open while no key exists, so the first key can be made):
//   POST   /api/v1/api-keys              {name, role}  -> 201 with the key's text, shown this once
//   GET    /api/v1/api-keys              [{id, name, role, tenantId, createdAt, disabledAt}]
//   POST   /api/v1/api-keys/{id}/disable -> 200
//   DELETE /api/v1/api-keys/{id}         -> 204
#include "krino/core/http_server/router.hpp"
#include "krino/core/server_api/auth.hpp"
#include "krino/core/store/store.hpp"

namespace krino::core::server_api {

void add_key_routes(http_server::Router& router, store::Store& store, const Authenticator& auth);

}  // namespace krino::core::server_api
