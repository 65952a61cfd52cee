// Reading one version of a server dataset, page by page, as krino.example/1 lines: each item becomes
// {"id", "datasetItemId", "inputs", "expectedOutputs", "metadata"} with the server's value bytes, so
// the runner reports the dataset item id the gate pairs by.
#ifndef KRINO_SERVER_DATASETS_DATASET_FETCH_HPP
#define KRINO_SERVER_DATASETS_DATASET_FETCH_HPP

#include "dataset_uri.hpp"

#include <krino/support/server_client.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace krino::server_datasets {

struct FetchedVersion {
  enum class Kind {
    fetched,      // `version` and `examples` hold the version
    unreachable,  // no answer, or 429/5xx, after the client's retries: a cached copy may stand in
    refused,      // a 4xx (no such dataset or version, no access) or an answer that is not a page
  };
  Kind kind = Kind::fetched;
  std::int64_t version = 0;
  std::vector<std::string> examples;  // one krino.example/1 object per item, in ordinal order
  std::string message;                // for refused and unreachable: what happened
};

// Items per page asked for (the server's largest).
inline constexpr int kFetchPageSize = 1000;

// GETs the version's items page by page. For `latest` the first page fixes the concrete version,
// and the later pages ask for that number, so a version added meanwhile cannot mix in.
FetchedVersion fetch_version(krino::server::ServerClient& client, const DatasetRef& ref);

// One page's body into examples (appended to `examples`); its version and total into the outs. An
// error message when the body is not such a page.
std::optional<std::string> read_items_page(std::string_view body, std::vector<std::string>& examples, std::int64_t& version,
                                           std::int64_t& total);

}  // namespace krino::server_datasets

#endif  // KRINO_SERVER_DATASETS_DATASET_FETCH_HPP
