// krino C++ helper: a component's configuration (krino::Config), the user's options already
// validated by the host against the component's config schema.
//
// Threads: built on the main thread, in create/open; a Config is only read afterwards and may be
// read from any thread. Ownership: it owns a copy of the options; the host's bytes are not kept.
#ifndef KRINO_PLUGIN_CONFIG_HPP
#define KRINO_PLUGIN_CONFIG_HPP

#include <krino/plugin/error.hpp>

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
  boost::json::value value = boost::json::parse(std::string_view(data, size), ec);
  if (ec) throw invalid_argument(std::string(what) + " is not valid JSON: " + ec.message());
  if (!value.is_object()) throw invalid_argument(std::string(what) + " must be a JSON object");
  return std::move(value.as_object());
}
}  // namespace detail

// The options of one component. A getter returns the fallback for an absent or null option and
// throws invalid_argument for a value of the wrong type.
class Config {
 public:
  Config() = default;
  explicit Config(boost::json::object object) : object_(std::move(object)) {}

  const boost::json::object& json() const { return object_; }
  bool has(std::string_view key) const { return find(key) != nullptr; }

  // nullptr when absent or null.
  const boost::json::value* find(std::string_view key) const {
    auto it = object_.find(key);
    if (it == object_.end() || it->value().is_null()) return nullptr;
    return &it->value();
  }

  std::string get_string(std::string_view key, std::string_view fallback = {}) const {
    const auto* v = find(key);
    if (v == nullptr) return std::string(fallback);
    if (!v->is_string()) throw invalid_argument("option '" + std::string(key) + "' must be a string");
    return std::string(v->get_string());
  }
  double get_double(std::string_view key, double fallback) const {
    const auto* v = find(key);
    if (v == nullptr) return fallback;
    if (v->is_double()) return v->get_double();
    if (v->is_int64()) return static_cast<double>(v->get_int64());
    if (v->is_uint64()) return static_cast<double>(v->get_uint64());
    throw invalid_argument("option '" + std::string(key) + "' must be a number");
  }
  std::optional<double> get_optional_double(std::string_view key) const {
    if (!has(key)) return std::nullopt;
    return get_double(key, 0.0);
  }
  int64_t get_int(std::string_view key, int64_t fallback) const {
    const auto* v = find(key);
    if (v == nullptr) return fallback;
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
  bool get_bool(std::string_view key, bool fallback) const {
    const auto* v = find(key);
    if (v == nullptr) return fallback;
    if (!v->is_bool()) throw invalid_argument("option '" + std::string(key) + "' must be true or false");
    return v->get_bool();
  }
  std::vector<std::string> get_strings(std::string_view key) const {
    std::vector<std::string> out;
    const auto* v = find(key);
    if (v == nullptr) return out;
    if (!v->is_array()) throw invalid_argument("option '" + std::string(key) + "' must be a list of strings");
    for (const auto& item : v->get_array()) {
      if (!item.is_string()) throw invalid_argument("option '" + std::string(key) + "' must be a list of strings");
      out.emplace_back(item.get_string());
    }
    return out;
  }

 private:
  boost::json::object object_;
};

}  // namespace krino

#endif  // KRINO_PLUGIN_CONFIG_HPP
