// The `dataset` resolver: `dataset://<name>@<version>` read from krino serve (KRINO_SERVER_URL,
// KRINO_API_KEY as its Bearer key). Without a server URL it resolves nothing: opening such a URI is
// an error naming it. The cache rules (docs/plugins/server-datasets.md):
//   - a pinned version is read from the server first, and from the cache when the server cannot be
//     reached (no answer, or 429/5xx after the retries);
//   - `latest` is always read from the server; the version it names is then cached;
//   - a 4xx or an answer that is not a page of items is an error, never hidden by the cache.
#ifndef KRINO_SERVER_DATASETS_SERVER_DATASET_RESOLVER_HPP
#define KRINO_SERVER_DATASETS_SERVER_DATASET_RESOLVER_HPP

#include "dataset_uri.hpp"

#include <krino/support/server_client.hpp>
#include <krino/support/server_transport.hpp>

#include <krino/plugin.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace krino::server_datasets {

struct ResolverSettings {
  std::string server_url;  // empty: inert
  std::string api_key;
  std::optional<std::filesystem::path> cache_root;  // none: no cache
  krino::server::RetrySettings retry = {};
};

// Where a version came from.
struct ResolvedDataset {
  DatasetRef ref;
  std::int64_t version = 0;
  std::vector<std::string> examples;  // krino.example/1 lines
  bool from_cache = false;
};

// Reads the version `uri` names by those rules; `warn` hears what the caller should know but need
// not stop for (the cache could not be written, the cached copy stands in). Throws krino::Error
// naming the URI.
ResolvedDataset resolve_server_dataset(std::string_view uri, const ResolverSettings& settings, krino::server::Transport& transport,
                                       const std::function<void(const std::string&)>& warn,
                                       krino::server::Sleeper sleeper = krino::server::real_sleeper());

// The settings from the environment (KRINO_SERVER_URL, KRINO_API_KEY, the XDG cache).
ResolverSettings settings_from_environment();

class ServerDatasetResolver {
 public:
  ServerDatasetResolver(const krino_host* host, std::string uri, const krino::Config& options, krino::DatasetInfo& info);

  // [serial] The next example, as the server sent it (already canonical).
  krino::Next next(std::string& record, std::string& location, std::string& error);

 private:
  ResolvedDataset dataset_;
  std::size_t next_ = 0;
};

}  // namespace krino::server_datasets

#endif  // KRINO_SERVER_DATASETS_SERVER_DATASET_RESOLVER_HPP
