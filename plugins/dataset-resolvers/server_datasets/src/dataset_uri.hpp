// A server dataset's URI, `dataset://<name>@<version>`: the version is required, a positive whole
// number or `latest`.
#ifndef KRINO_SERVER_DATASETS_DATASET_URI_HPP
#define KRINO_SERVER_DATASETS_DATASET_URI_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace krino::server_datasets {

struct DatasetRef {
  std::string name;
  std::optional<std::int64_t> version;  // none: latest

  // "name@3" or "name@latest".
  std::string text() const;
};

// Throws krino::Error (INVALID_ARGUMENT) naming `uri` and what is wrong with it.
DatasetRef parse_dataset_uri(std::string_view uri);

// `name@3` or `name@latest` (the form `krino dataset pull` and `diff` take): the same rules.
DatasetRef parse_dataset_ref(std::string_view ref, std::string_view shown_as);

}  // namespace krino::server_datasets

#endif  // KRINO_SERVER_DATASETS_DATASET_URI_HPP
