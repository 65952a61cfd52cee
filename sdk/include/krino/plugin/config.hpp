// krino C++ helper: a component's configuration (krino::Config), the user's options already
// validated by the host against the component's config schema, and that schema's defaults
// (<krino/plugin/schema_defaults.hpp>). Defaults belong in the schema, not in code: declare an
// option's "default" there, where `krino plugins info` shows it, and read it with the getter
// without a fallback (get_int("max_words")).
//
// Threads: built on the main thread, in create/open; a Config is only read afterwards and may be
// read from any thread. Ownership: it owns a copy of the options; the host's bytes are not kept.
#ifndef KRINO_PLUGIN_CONFIG_HPP
#define KRINO_PLUGIN_CONFIG_HPP

#include <krino/plugin/error.hpp>
#include <krino/plugin/schema_defaults.hpp>

#include <krino/json_parse.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace krino {

namespace detail {
// The host's JSON object text (configuration, options) as an object; INVALID_ARGUMENT otherwise.
inline boost::json::object parse_object(const char* data, size_t size, const char* what) {
  boost::system::error_code ec;
  boost::json::value value = krino::json::parse(std::string_view(data, size), ec);
  if (ec) throw invalid_argument(std::string(what) + " is not valid JSON: " + ec.message());
  if (!value.is_object()) throw invalid_argument(std::string(what) + " must be a JSON object");
  return std::move(value.as_object());
}
}  // namespace detail

// The options of one component, as the user gave them, and the defaults of the component's config
// schema (the helper's trampolines give every Config its registered schema). The getters without a
// fallback return the user's value, else the schema's default, and throw invalid_argument when
// there is neither (get_string returns "" then); those with a fallback ignore the schema, as they
// always did. has(), find() and json() say what the user set, so an option whose absence means
// something of its own can still tell. A value of the wrong type throws invalid_argument.
class Config {
 public:
  Config() = default;
  explicit Config(boost::json::object object) : object_(std::move(object)) {}
  Config(boost::json::object object, std::string_view config_schema) : object_(std::move(object)) {
    use_schema_defaults(config_schema);
  }

  // Takes the defaults of `config_schema` (a component's JSON Schema text), replacing any taken
  // before. A component constructed directly (in a test, say) calls it with its own schema.
  Config& use_schema_defaults(std::string_view config_schema) {
    defaults_ = schema_defaults(config_schema);
    return *this;
  }

  // The options the user set.
  const boost::json::object& json() const { return object_; }
  // The schema's defaults, by option name.
  const boost::json::object& defaults() const { return defaults_; }
  bool has(std::string_view key) const { return find(key) != nullptr; }

  // The user's value; nullptr when absent or null.
  const boost::json::value* find(std::string_view key) const {
    auto it = object_.find(key);
    if (it == object_.end() || it->value().is_null()) return nullptr;
    return &it->value();
  }
  // The user's value, else the schema's default; nullptr when neither.
  const boost::json::value* find_or_default(std::string_view key) const {
    if (const auto* value = find(key)) return value;
    auto it = defaults_.find(key);
    return it != defaults_.end() ? &it->value() : nullptr;
  }

  std::string get_string(std::string_view key) const { return string_of(key, find_or_default(key), {}); }
  std::string get_string(std::string_view key, std::string_view fallback) const {
    return string_of(key, find(key), fallback);
  }
  double get_double(std::string_view key, double fallback) const {
    const auto* v = find(key);
    return v == nullptr ? fallback : number_of(key, v);
  }
  double get_double(std::string_view key) const { return number_of(key, require(key)); }
  std::optional<double> get_optional_double(std::string_view key) const {
    if (!has(key)) return std::nullopt;
    return get_double(key, 0.0);
  }
  int64_t get_int(std::string_view key, int64_t fallback) const {
    const auto* v = find(key);
    return v == nullptr ? fallback : integer_of(key, v);
  }
  int64_t get_int(std::string_view key) const { return integer_of(key, require(key)); }
  bool get_bool(std::string_view key) const { return bool_of(key, require(key)); }
  bool get_bool(std::string_view key, bool fallback) const {
    const auto* v = find(key);
    return v == nullptr ? fallback : bool_of(key, v);
  }
  // The user's list, else the schema's default, else an empty list.
  std::vector<std::string> get_strings(std::string_view key) const {
    std::vector<std::string> out;
    const auto* v = find_or_default(key);
    if (v == nullptr) return out;
    if (!v->is_array()) throw invalid_argument("option '" + std::string(key) + "' must be a list of strings");
    for (const auto& item : v->get_array()) {
      if (!item.is_string()) throw invalid_argument("option '" + std::string(key) + "' must be a list of strings");
      out.emplace_back(item.get_string());
    }
    return out;
  }

 private:
  // For the getters without a fallback: the value, or invalid_argument when there is none.
  const boost::json::value* require(std::string_view key) const {
    const auto* v = find_or_default(key);
    if (v == nullptr)
      throw invalid_argument("option '" + std::string(key) + "' is not set and its schema gives no default");
    return v;
  }
  static std::string string_of(std::string_view key, const boost::json::value* v, std::string_view fallback) {
    if (v == nullptr) return std::string(fallback);
    if (!v->is_string()) throw invalid_argument("option '" + std::string(key) + "' must be a string");
    return std::string(v->get_string());
  }
  static double number_of(std::string_view key, const boost::json::value* v) {
    if (v->is_double()) return v->get_double();
    if (v->is_int64()) return static_cast<double>(v->get_int64());
    if (v->is_uint64()) return static_cast<double>(v->get_uint64());
    throw invalid_argument("option '" + std::string(key) + "' must be a number");
  }
  static int64_t integer_of(std::string_view key, const boost::json::value* v) {
    if (v->is_int64()) return v->get_int64();
    if (v->is_uint64() && v->get_uint64() <= static_cast<uint64_t>(INT64_MAX)) return static_cast<int64_t>(v->get_uint64());
    // A whole double such as 3.0 counts; the range check comes first, as casting an out-of-range
    // double to an integer is undefined behaviour. 2^63 is exactly representable as a double.
    if (v->is_double()) {
      const double d = v->get_double();
      if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && d == static_cast<double>(static_cast<int64_t>(d)))
        return static_cast<int64_t>(d);
    }
    throw invalid_argument("option '" + std::string(key) + "' must be an integer");
  }
  static bool bool_of(std::string_view key, const boost::json::value* v) {
    if (!v->is_bool()) throw invalid_argument("option '" + std::string(key) + "' must be true or false");
    return v->get_bool();
  }

  boost::json::object object_;
  boost::json::object defaults_;
};

namespace detail {
// The host's options as a Config with the defaults of `config_schema` (the component's registered
// schema; nullptr for none).
inline Config configuration(const char* data, size_t size, const char* what, const char* config_schema) {
  Config config(parse_object(data, size, what));
  if (config_schema != nullptr) config.use_schema_defaults(config_schema);
  return config;
}
}  // namespace detail

}  // namespace krino

#endif  // KRINO_PLUGIN_CONFIG_HPP
