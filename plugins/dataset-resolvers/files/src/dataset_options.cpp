#include "dataset_options.hpp"

#include <algorithm>

namespace krino::files {

DatasetOptions read_dataset_options(const Config& options, std::initializer_list<std::string_view> allowed) {
  for (const auto& field : options.json()) {
    if (std::find(allowed.begin(), allowed.end(), std::string_view(field.key())) == allowed.end())
      throw invalid_argument("unknown dataset option '" + std::string(field.key()) + "'");
  }
  DatasetOptions out;
  if (options.has("name")) out.name = options.get_string("name");
  if (options.has("description")) out.description = options.get_string("description");
  return out;
}

}  // namespace krino::files
