#pragma once
// Review and curation (the Dokimos server's paths and payloads):
//   GET    /api/v1/review-queue?projectName=&experimentId=&runId=&page=0&size=50
//          run items not yet judged (no annotation, or the latest one UNSURE), oldest first
//   PUT    /api/v1/runs/{runId}/items/{itemResultId}/annotation  {verdict, overriddenExpectedOutput?, note?}
//   GET    /api/v1/runs/{runId}/items/{itemResultId}/annotation  the caller's annotation
//   DELETE /api/v1/runs/{runId}/items/{itemResultId}/annotation  the caller's -> 204
//   GET    /api/v1/runs/{runId}/items/{itemResultId}/annotations every reviewer's, oldest first
//   POST   /api/v1/datasets/promote  {datasetName, description?, items:[{itemResultId, overriddenExpectedOutput?}]}
//          -> 201 + Location, the dataset's next version: its newest version's items plus these
// Beyond the reference, an item may have one annotation per principal (the key that wrote it;
// "anonymous" when auth is off): several reviewers judge one item, and the queue reads the most
// recent verdict of any of them.
#include "krino/core/http_server/router.hpp"
#include "krino/core/server_api/auth.hpp"
#include "krino/core/store/store.hpp"

namespace krino::core::server_api {

// `store` and `auth` must outlive the router. Reads need Access::read, the rest Access::write.
void add_review_routes(http_server::Router& router, store::Store& store, const Authenticator& auth);

}  // namespace krino::core::server_api
