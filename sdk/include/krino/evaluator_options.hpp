// Options every evaluator shares, and the checks an evaluator runs on its configuration before it
// reads it. Header-only, C++17; part of the helper layer, never of the ABI.
#ifndef KRINO_EVALUATOR_OPTIONS_HPP
#define KRINO_EVALUATOR_OPTIONS_HPP

#include <krino/json_text.hpp>
#include <krino/plugin.hpp>

#include <krino/json_parse.hpp>
#include <boost/json.hpp>

#include <array>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

namespace krino {

struct CommonOptions {
  std::string name;  // the result's name, and the key results are aggregated under
  double threshold;  // success = score >= threshold
};

// Joins two string literals at compile time, so option schemas that share a part (precision and
// recall, say) are still constants a registration can point at during static initialization.
template <std::size_t N1, std::size_t N2>
constexpr std::array<char, N1 + N2 - 1> join_literals(const char (&first)[N1], const char (&second)[N2]) {
  std::array<char, N1 + N2 - 1> out{};
  for (std::size_t i = 0; i + 1 < N1; ++i) out[i] = first[i];
  for (std::size_t i = 0; i < N2; ++i) out[N1 - 1 + i] = second[i];
  return out;
}

namespace detail {
inline std::string required_string(const Config& config, std::string_view key) {
  if (config.find_or_default(key) == nullptr)
    throw invalid_argument("option '" + std::string(key) + "' is not set and its schema gives no default");
  return config.get_string(key);
}
inline CommonOptions checked_common_options(CommonOptions options) {
  if (options.name.empty()) throw invalid_argument("option 'name' must not be empty");
  if (!(options.threshold >= 0.0 && options.threshold <= 1.0))
    throw invalid_argument("option 'threshold' must be between 0 and 1, got " +
                           json::to_compact_json(boost::json::value(options.threshold)));
  return options;
}
}  // namespace detail

// Reads `name` and `threshold`, whose defaults are the schema's; a threshold outside 0..1 is a
// configuration error.
inline CommonOptions read_common_options(const Config& config) {
  return detail::checked_common_options({detail::required_string(config, "name"), config.get_double("threshold")});
}
// The same, with fallbacks for a Config that knows no schema defaults.
inline CommonOptions read_common_options(const Config& config, std::string_view default_name,
                                         double default_threshold) {
  return detail::checked_common_options(
      {config.get_string("name", default_name), config.get_double("threshold", default_threshold)});
}

// Rejects options that `config_schema` does not declare and declared-required options that are
// absent. The host validates configurations against the schema too; this repeats the two checks
// whose absence would otherwise pass silently when the evaluator is created some other way (a
// misspelt option would simply be ignored).
// Returns `config`, so constructors can check before their member initializers read anything.
inline const Config& check_option_names(const Config& config, std::string_view config_schema) {
  const boost::json::value schema = krino::json::parse(config_schema);
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
      if (!config.has(key.as_string()))
        throw invalid_argument("missing required option '" + std::string(key.as_string()) + "'");
    }
  }
  return config;
}

// Gives `config` the defaults of `config_schema` (as the trampolines do) and checks its option names
// (check_option_names). A constructor taking its Config by value starts with it, so it reads the
// same options whether the host created it or a test did:
//   X::X(Config config) : common_(read_common_options(apply_schema(config, kConfigSchema))), ...
inline const Config& apply_schema(Config& config, std::string_view config_schema) {
  return check_option_names(config.use_schema_defaults(config_schema), config_schema);
}

// Reads a key option (output_key, retrieved_key, ...): a non-empty string, defaulted by the schema.
inline std::string read_key_option(const Config& config, std::string_view option) {
  std::string key = detail::required_string(config, option);
  if (key.empty()) throw invalid_argument("option '" + std::string(option) + "' must not be empty");
  return key;
}
inline std::string read_key_option(const Config& config, std::string_view option, std::string_view fallback) {
  std::string key = config.get_string(option, fallback);
  if (key.empty()) throw invalid_argument("option '" + std::string(option) + "' must not be empty");
  return key;
}
// Reads `output_key`: the schema's default, or "output" for a schema that gives none.
inline std::string read_output_key(const Config& config) {
  if (config.find_or_default("output_key") != nullptr) return read_key_option(config, "output_key");
  return read_key_option(config, "output_key", "output");
}

// Reads an option that must be one of `allowed` (lower snake_case words); `fallback` only for a
// Config that knows no schema default.
inline std::string read_choice(const Config& config, std::string_view key, std::string_view fallback,
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
inline std::string read_choice(const Config& config, std::string_view key,
                               std::initializer_list<std::string_view> allowed) {
  return read_choice(config, key, detail::required_string(config, key), allowed);
}

}  // namespace krino

#endif  // KRINO_EVALUATOR_OPTIONS_HPP
