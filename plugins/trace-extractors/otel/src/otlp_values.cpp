#include "otlp_values.hpp"

#include <boost/archive/iterators/binary_from_base64.hpp>
#include <boost/archive/iterators/transform_width.hpp>

#include <cstddef>
#include <exception>
#include <string>

namespace krino::otel {
namespace {

bool is_hex(std::string_view text) {
  for (char c : text)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
  return true;
}

bool is_base64(std::string_view text) {
  for (char c : text)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '/' || c == '='))
      return false;
  return true;
}

// Decodes base64 with Boost.Serialization's iterators; nullopt when the text is not base64.
std::optional<std::string> decode_base64(std::string_view text) {
  std::string body(text);
  while (!body.empty() && body.back() == '=') body.pop_back();
  if (!is_base64(body)) return std::nullopt;
  using Decoder = boost::archive::iterators::transform_width<
      boost::archive::iterators::binary_from_base64<std::string::const_iterator>, 8, 6>;
  try {
    std::string bytes(Decoder(body.cbegin()), Decoder(body.cend()));
    bytes.resize(body.size() * 6 / 8);  // the last group's padding bits are not a byte
    return bytes;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string enum_name(const boost::json::value* value, std::string_view prefix, const char* const* names, std::size_t count) {
  if (value == nullptr) return {};
  if (value->is_string()) {
    std::string_view text = value->get_string();
    if (text.substr(0, prefix.size()) == prefix) text.remove_prefix(prefix.size());
    return std::string(text);
  }
  if (value->is_int64() && value->get_int64() >= 0 && static_cast<std::size_t>(value->get_int64()) < count)
    return names[value->get_int64()];
  if (value->is_uint64() && value->get_uint64() < count) return names[value->get_uint64()];
  return {};
}

}  // namespace

boost::json::value any_value(const boost::json::value& value) {
  if (!value.is_object()) return value;
  const boost::json::object& any = value.get_object();
  if (any.empty()) return nullptr;
  if (const boost::json::value* v = any.if_contains("stringValue")) return *v;
  if (const boost::json::value* v = any.if_contains("boolValue")) return *v;
  if (const boost::json::value* v = any.if_contains("intValue")) {
    if (v->is_string()) {
      const std::string_view text = v->get_string();
      try {
        std::size_t used = 0;
        const long long n = std::stoll(std::string(text), &used);
        if (used == text.size()) return static_cast<int64_t>(n);
      } catch (const std::exception&) {
      }
    }
    return *v;
  }
  if (const boost::json::value* v = any.if_contains("doubleValue")) {
    if (v->is_string()) {  // protobuf JSON writes "NaN", "Infinity" and sometimes plain numbers as text
      try {
        return std::stod(std::string(v->get_string()));
      } catch (const std::exception&) {
        return *v;
      }
    }
    return *v;
  }
  if (const boost::json::value* v = any.if_contains("arrayValue")) {
    boost::json::array out;
    if (v->is_object())
      if (const boost::json::value* values = v->get_object().if_contains("values"); values != nullptr && values->is_array())
        for (const boost::json::value& element : values->get_array()) out.push_back(any_value(element));
    return out;
  }
  if (const boost::json::value* v = any.if_contains("kvlistValue")) {
    if (v->is_object()) return attributes(v->get_object().if_contains("values"));
    return boost::json::object();
  }
  if (const boost::json::value* v = any.if_contains("bytesValue")) return *v;
  return value;  // not an AnyValue: a plain object value
}

boost::json::object attributes(const boost::json::value* list) {
  boost::json::object out;
  if (list == nullptr) return out;
  if (list->is_object()) return list->get_object();
  if (!list->is_array()) return out;
  for (const boost::json::value& entry : list->get_array()) {
    if (!entry.is_object()) continue;
    const boost::json::value* key = entry.get_object().if_contains("key");
    if (key == nullptr || !key->is_string()) continue;
    const boost::json::value* value = entry.get_object().if_contains("value");
    out[key->get_string()] = value != nullptr ? any_value(*value) : boost::json::value(nullptr);
  }
  return out;
}

std::string normalize_id(std::string_view id, std::size_t bytes) {
  std::string out;
  if (id.size() == bytes * 2 && is_hex(id)) {
    for (char c : id) out += (c >= 'A' && c <= 'F') ? static_cast<char>(c - 'A' + 'a') : c;
    return out;
  }
  if (const std::optional<std::string> decoded = decode_base64(id); decoded && decoded->size() == bytes) {
    static const char digits[] = "0123456789abcdef";
    for (unsigned char c : *decoded) {
      out += digits[c >> 4];
      out += digits[c & 0xF];
    }
    return out;
  }
  return std::string(id);
}

std::optional<uint64_t> unix_nanos(const boost::json::value* value) {
  if (value == nullptr) return std::nullopt;
  if (value->is_uint64()) return value->get_uint64();
  if (value->is_int64() && value->get_int64() >= 0) return static_cast<uint64_t>(value->get_int64());
  if (value->is_double() && value->get_double() >= 0 && value->get_double() < 1.8e19)
    return static_cast<uint64_t>(value->get_double());
  if (value->is_string()) {
    const std::string_view text = value->get_string();
    if (text.empty() || text.size() > 20) return std::nullopt;
    uint64_t n = 0;
    for (char c : text) {
      if (c < '0' || c > '9') return std::nullopt;
      n = n * 10 + static_cast<uint64_t>(c - '0');
    }
    return n;
  }
  return std::nullopt;
}

std::string span_kind(const boost::json::value* value) {
  static const char* const names[] = {"UNSPECIFIED", "INTERNAL", "SERVER", "CLIENT", "PRODUCER", "CONSUMER"};
  return enum_name(value, "SPAN_KIND_", names, 6);
}

std::string status_code(const boost::json::value* value) {
  static const char* const names[] = {"UNSET", "OK", "ERROR"};
  return enum_name(value, "STATUS_CODE_", names, 3);
}

}  // namespace krino::otel
