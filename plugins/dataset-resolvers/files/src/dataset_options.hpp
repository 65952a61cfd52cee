// The options every files resolver takes (option_schemas.hpp publishes them to the host).
#ifndef KRINO_FILES_DATASET_OPTIONS_HPP
#define KRINO_FILES_DATASET_OPTIONS_HPP

#include <krino/plugin.hpp>

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace krino::files {

struct DatasetOptions {
  std::optional<std::string> name;         // overrides the name from the file
  std::optional<std::string> description;  // overrides the description from the file
};

// Reads "name" and "description"; throws krino::Error (INVALID_ARGUMENT) for a key outside
// `allowed` too, since a misspelt option must not pass silently when no host validated it.
DatasetOptions read_dataset_options(const Config& options, std::initializer_list<std::string_view> allowed);

}  // namespace krino::files

#endif  // KRINO_FILES_DATASET_OPTIONS_HPP
