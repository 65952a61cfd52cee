// Small questions extractors ask of a raw document before reading it, and the words their errors
// use to say what they found instead. Header-only, C++17.
#ifndef KRINO_SUPPORT_TRACE_DOCUMENT_SHAPE_HPP
#define KRINO_SUPPORT_TRACE_DOCUMENT_SHAPE_HPP

#include <boost/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace krino::trace {

// "an object with keys a, b, c", "an array of 3 elements", "a string": for error messages.
inline std::string describe_document(const boost::json::value& document) {
  switch (document.kind()) {
    case boost::json::kind::object: {
      const boost::json::object& object = document.get_object();
      if (object.empty()) return "an empty object";
      std::string keys;
      std::size_t shown = 0;
      for (const auto& member : object) {
        if (shown == 8) {
          keys += ", ...";
          break;
        }
        keys += (shown++ == 0 ? "" : ", ") + std::string(member.key());
      }
      const bool schema = object.contains("$schema") || object.contains("$defs") || object.contains("definitions");
      return std::string(schema ? "a JSON Schema, " : "") + "an object with keys " + keys;
    }
    case boost::json::kind::array: {
      const std::size_t n = document.get_array().size();
      if (n == 0) return "an empty array";
      return "an array of " + std::to_string(n) + (n == 1 ? " element" : " elements") +
             (document.get_array().front().is_object() ? "" : " that are not objects");
    }
    case boost::json::kind::string: return "a string";
    case boost::json::kind::null: return "null";
    case boost::json::kind::bool_: return "a boolean";
    default: return "a number";
  }
}

// A member of `object` as a string: "" when absent, null or not a string.
inline std::string string_member(const boost::json::object& object, std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->get_string()) : std::string();
}

// The object at `key` of `object`, or nullptr.
inline const boost::json::object* find_object(const boost::json::object& object, std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  return value != nullptr && value->is_object() ? &value->get_object() : nullptr;
}

// The array at `key` of `object`, or nullptr.
inline const boost::json::array* find_array(const boost::json::object& object, std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  return value != nullptr && value->is_array() ? &value->get_array() : nullptr;
}

// Whether `value` is a non-empty array of objects that each have a string member `key`.
inline bool is_list_of_objects_with(const boost::json::value& value, std::string_view key) {
  if (!value.is_array() || value.get_array().empty()) return false;
  for (const boost::json::value& element : value.get_array()) {
    if (!element.is_object()) return false;
    const boost::json::value* member = element.get_object().if_contains(key);
    if (member == nullptr || !member->is_string()) return false;
  }
  return true;
}

}  // namespace krino::trace

#endif  // KRINO_SUPPORT_TRACE_DOCUMENT_SHAPE_HPP
