#include "json_options.hpp"

namespace krino::jsonl {

JsonOptions JsonOptions::from_config(const krino::Config& config) {
  for (const auto& entry : config.json()) {
    if (entry.key() != "path" && entry.key() != "append")
      throw krino::invalid_argument("unknown option '" + std::string(entry.key()) + "'");
  }
  JsonOptions options;
  options.path = config.get_string("path", options.path);
  if (options.path.empty()) throw krino::invalid_argument("option 'path' must not be empty");
  options.append = config.get_bool("append", options.append);
  return options;
}

}  // namespace krino::jsonl
