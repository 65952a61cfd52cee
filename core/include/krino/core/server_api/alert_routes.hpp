#pragma once
// A project's regression-alert webhooks (the Dokimos server's paths) and krino's delivery log:
//   POST   /api/v1/projects/{projectId}/alert-webhooks                 {url, secret?, enabled?} -> 201 + Location
//   GET    /api/v1/projects/{projectId}/alert-webhooks                 [webhook], oldest first
//   GET    /api/v1/projects/{projectId}/alert-webhooks/{webhookId}
//   PUT    /api/v1/projects/{projectId}/alert-webhooks/{webhookId}     {url, enabled?, secret?} -> the webhook
//   DELETE /api/v1/projects/{projectId}/alert-webhooks/{webhookId}     -> 204
//   GET    .../alert-webhooks/{webhookId}/deliveries?page=0&size=20     a page of deliveries, newest first
//   POST   .../alert-webhooks/{webhookId}/deliveries/{deliveryId}/retry a DEAD delivery sent again -> the delivery
// A webhook shows `hasSecret`, never the secret. An unknown project or webhook, or one the caller's
// scope cannot see, is a 404.
#include "krino/core/http_server/router.hpp"
#include "krino/core/server_api/auth.hpp"
#include "krino/core/store/store.hpp"

namespace krino::core::server_api {

// `store` and `auth` must outlive the router. Every route needs Access::write, reads too: a webhook's
// URL may itself be a credential.
void add_alert_routes(http_server::Router& router, store::Store& store, const Authenticator& auth);

}  // namespace krino::core::server_api
