// The results server's dataset endpoints as `krino dataset` calls them: one blocking exchange at a
// time over core's HTTP client, the Bearer key from --api-key or KRINO_API_KEY. Every failure is a
// runtime error naming what was asked and what the server said.
#pragma once

#include "krino/core/common/io_service.hpp"
#include "krino/core/host/host_http.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace krino::cli {

// One item of a version as the server shows it; the JSON members are compact value text.
struct ServerDatasetItem {
  std::string id;
  std::string inputs;
  std::string expected_outputs;  // "null" when the item has none
  std::string metadata;          // "null" when the item has none
};

struct ServerDatasetVersion {
  std::int64_t version = 0;
  std::vector<ServerDatasetItem> items;  // by ordinal
};

class DatasetClient {
 public:
  // `server` and `api_key` empty: KRINO_SERVER_URL and KRINO_API_KEY. Throws a usage error when
  // there is no server URL at all.
  DatasetClient(const std::string& server, const std::string& api_key);

  // POST /api/v1/datasets; false when the dataset already exists (409).
  bool create(const std::string& name, const std::optional<std::string>& description);
  // POST /api/v1/datasets/{name}/versions with `body`; the new version's number.
  std::int64_t add_version(const std::string& name, const std::string& body);
  // Every item of `name@version` (`version` empty: latest), page by page at one concrete version.
  ServerDatasetVersion read(const std::string& name, std::optional<std::int64_t> version);
  // GET /api/v1/datasets/{to_name}/diff: the server's comparison of the two versions (its JSON
  // text), every entry included.
  std::string diff(const std::string& from_name, std::optional<std::int64_t> from, const std::string& to_name, std::optional<std::int64_t> to);

 private:
  core::HttpResult call(const std::string& method, const std::string& path, std::string body);
  [[noreturn]] void refused(const std::string& what, const core::HttpResult& result) const;

  std::string base_;
  std::string api_key_;
  core::IoService io_;
  core::HostHttp http_;
};

}  // namespace krino::cli
