#include "bfcl_function_docs.h"

#include <algorithm>
#include <array>
#include <utility>

namespace krino::agent {

namespace {

// BFCL's GORILLA_TO_OPENAPI table.
constexpr std::array<std::pair<std::string_view, std::string_view>, 26> kBfclTypes{{
    {"integer", "integer"}, {"number", "number"},   {"float", "number"},    {"string", "string"},
    {"boolean", "boolean"}, {"bool", "boolean"},    {"array", "array"},     {"list", "array"},
    {"dict", "object"},     {"object", "object"},   {"tuple", "array"},     {"any", "string"},
    {"byte", "integer"},    {"short", "integer"},   {"long", "integer"},    {"double", "number"},
    {"char", "string"},     {"ArrayList", "array"}, {"Array", "array"},     {"HashMap", "object"},
    {"Hashtable", "object"}, {"Queue", "array"},    {"Stack", "array"},     {"Any", "string"},
    {"String", "string"},   {"Bigint", "integer"},
}};

// The JSON Schema type of a BFCL type name; unknown names are strings, as BFCL makes them.
std::string_view json_schema_type(std::string_view bfcl_type) {
  for (const auto& [from, to] : kBfclTypes)
    if (from == bfcl_type) return to;
  return "string";
}

// Maps schema["type"] when it is a name; returns the type the schema ends up with ("" when it is
// not a name).
std::string_view map_type_of(boost::json::object& schema, bool missing_is_string) {
  boost::json::value* type = schema.if_contains("type");
  if (type == nullptr) {
    if (!missing_is_string) return {};
    schema["type"] = "string";
    return "string";
  }
  if (!type->is_string()) return {};
  const std::string_view mapped = json_schema_type(type->get_string());
  *type = mapped;
  return mapped;
}

void convert_properties(boost::json::object& properties);

// An array's or object's inner schemas, to the depth BFCL converts them.
void convert_inner(boost::json::object& schema, std::string_view type) {
  if (type != "array" && type != "object") return;
  if (boost::json::value* properties = schema.if_contains("properties"); properties && properties->is_object()) {
    convert_properties(properties->get_object());
    return;
  }
  boost::json::value* items = schema.if_contains("items");
  if (items == nullptr || !items->is_object()) return;
  boost::json::object& item = items->get_object();
  const std::string_view item_type = map_type_of(item, false);
  if (item_type == "array") {
    if (boost::json::value* inner = item.if_contains("items"); inner && inner->is_object())
      map_type_of(inner->get_object(), false);
  } else if (item_type == "object") {
    if (boost::json::value* properties = item.if_contains("properties"); properties && properties->is_object())
      convert_properties(properties->get_object());
  }
}

void convert_properties(boost::json::object& properties) {
  for (auto& member : properties) {
    if (!member.value().is_object()) continue;
    boost::json::object& schema = member.value().get_object();
    convert_inner(schema, map_type_of(schema, true));
  }
}

}  // namespace

boost::json::object bfcl_parameters_as_json_schema(const boost::json::object& parameters) {
  boost::json::object converted = parameters;
  converted["type"] = "object";
  if (boost::json::value* properties = converted.if_contains("properties"); properties && properties->is_object())
    convert_properties(properties->get_object());
  return converted;
}

std::string bfcl_api_name(std::string_view name) {
  std::string out(name);
  std::replace(out.begin(), out.end(), '.', '_');
  return out;
}

}  // namespace krino::agent
