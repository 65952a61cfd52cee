#pragma once
// LLM connections: a tenant's named model endpoints the server judge calls (spec §13.2).
//   POST   /api/v1/llm-connections       {name, baseUrl, model, provider? | protocol?, apiKey? | credentialRef?,
//                                         maxConcurrency?, timeoutMs?, maxRetries?, requestsPerMinute?} -> 201 + Location
//   GET    /api/v1/llm-connections       every visible connection, by name
//   GET    /api/v1/llm-connections/{id}
//   PUT    /api/v1/llm-connections/{id}  the same body; a credential left out keeps the stored one
//   DELETE /api/v1/llm-connections/{id}  -> 204
// The credential is exactly one of credentialRef (the NAME of an environment variable the server
// reads when it calls the model; the key never reaches the database) and apiKey (sealed with
// AES-256-GCM under KRINO_ENCRYPTION_KEY, common/secret_box.hpp; refused when that is not set). No
// answer, error or log line ever holds the key: answers say only whether one is set.
// Every route needs an EDITOR or ADMIN key once keys are in use (a connection spends money).
#include "krino/core/common/environment_lookup.hpp"
#include "krino/core/http_server/router.hpp"
#include "krino/core/server_api/auth.hpp"
#include "krino/core/store/store.hpp"

namespace krino::core::server_api {

// `store` and `auth` must outlive the router; `environment` gives KRINO_ENCRYPTION_KEY when an
// inline key is stored.
void add_llm_connection_routes(http_server::Router& router, store::Store& store, const Authenticator& auth,
                               EnvironmentLookup environment = process_environment());

}  // namespace krino::core::server_api
