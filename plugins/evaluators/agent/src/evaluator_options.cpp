#include "evaluator_options.h"

#include <krino/json_text.hpp>

#include <boost/json.hpp>

namespace krino::agent {

CommonOptions read_common_options(const Config& config, std::string_view default_name, double default_threshold) {
  CommonOptions options{config.get_string("name", default_name), config.get_double("threshold", default_threshold)};
  if (options.name.empty()) throw invalid_argument("option 'name' must not be empty");
  if (!(options.threshold >= 0.0 && options.threshold <= 1.0))
    throw invalid_argument("option 'threshold' must be between 0 and 1, got " +
                           json::to_compact_json(boost::json::value(options.threshold)));
  return options;
}

const Config& check_option_names(const Config& config, std::string_view config_schema) {
  const boost::json::value schema = boost::json::parse(config_schema);
  const boost::json::object& properties = schema.at("properties").as_object();
  for (const auto& option : config.json()) {
    if (properties.contains(option.key())) continue;
    std::string known;
    for (const auto& property : properties) {
      if (!known.empty()) known += ", ";
      known += property.key();
    }
    throw invalid_argument("unknown option '" + std::string(option.key()) + "' (known options: " + known + ")");
  }
  if (const auto* required = schema.as_object().if_contains("required")) {
    for (const auto& key : required->as_array()) {
      if (!config.has(key.as_string())) throw invalid_argument("missing required option '" + std::string(key.as_string()) + "'");
    }
  }
  return config;
}

std::string read_key_option(const Config& config, std::string_view option, std::string_view fallback) {
  std::string key = config.get_string(option, fallback);
  if (key.empty()) throw invalid_argument("option '" + std::string(option) + "' must not be empty");
  return key;
}

std::string read_choice(const Config& config, std::string_view key, std::string_view fallback,
                        std::initializer_list<std::string_view> allowed) {
  std::string value = config.get_string(key, fallback);
  std::string listed;
  for (std::string_view choice : allowed) {
    if (value == choice) return value;
    if (!listed.empty()) listed += ", ";
    listed += choice;
  }
  throw invalid_argument("option '" + std::string(key) + "' must be one of " + listed + ", got '" + value + "'");
}

}  // namespace krino::agent
