#include "json_options.hpp"

namespace krino::jsonl {

JsonOptions JsonOptions::from_config(krino::Config config) {
  config.use_schema_defaults(kJsonOptionsSchema);
  for (const auto& entry : config.json()) {
    if (entry.key() != "path" && entry.key() != "append")
      throw krino::invalid_argument("unknown option '" + std::string(entry.key()) + "'");
  }
  JsonOptions options;
  options.path = config.get_string("path");
  if (options.path.empty()) throw krino::invalid_argument("option 'path' must not be empty");
  options.append = config.get_bool("append");
  return options;
}

}  // namespace krino::jsonl
