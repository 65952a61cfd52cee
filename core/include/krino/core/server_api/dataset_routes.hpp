#pragma once
// Server datasets with immutable numbered versions (the Dokimos server's paths and payloads):
//   POST   /api/v1/datasets                                {name, description?} -> 201 + Location, the dataset
//   GET    /api/v1/datasets                                [dataset], by name, each with its latest version and item count
//   GET    /api/v1/datasets/{name}                         the dataset with its versions, newest first
//   DELETE /api/v1/datasets/{name}                         -> 204 (runs that used it stay)
//   POST   /api/v1/datasets/{name}/versions                {description?, items:[{id?, inputs, expectedOutputs?, metadata?}]}
//                                                          -> 201 + Location, the new version
//   GET    /api/v1/datasets/{name}/versions/{version}      one version, `latest` or a number
//   GET    /api/v1/datasets/{name}/versions/{version}/items?page=0&size=50
//                                                          a Spring page of {id, ordinal, inputs, expectedOutputs, metadata}
// A dataset item's id is the example's `id` when it has one, else derived from its inputs (see
// dataset_item_id()); the gate pairs runs by it. Writes need EDITOR when auth is on.
#include "krino/core/http_server/router.hpp"
#include "krino/core/server_api/auth.hpp"
#include "krino/core/store/store.hpp"

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace krino::core::server_api {

// Whether `name` can name a dataset: 1 to 128 of A-Z a-z 0-9 . _ - (it goes into
// `dataset://name@version` URIs, paths and cache directory names unescaped).
bool is_dataset_name(std::string_view name);

// The id of an item without one of its own: "in-" and the first 16 hex digits of the SHA-256 of its
// inputs in canonical JSON (members sorted), so the same inputs get the same id in every version.
std::string dataset_item_id(std::string_view inputs_json);

// The items of a version body, checked: what is wrong, with where (`items[3].inputs`), or the items
// with ids given or derived (a second item with an id already used is refused).
struct DatasetBodyProblem {
  std::string field;
  std::string message;
};
std::variant<std::vector<store::DatasetItem>, DatasetBodyProblem> read_dataset_items(std::string_view items_array);

// `store` and `auth` must outlive the router. Reads need Access::read, the rest Access::write.
void add_dataset_routes(http_server::Router& router, store::Store& store, const Authenticator& auth);

}  // namespace krino::core::server_api
