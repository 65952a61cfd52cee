// krino C++ helper: the defaults a component's config schema declares. Defaults live in the
// schema only (its top-level properties' "default"), where `krino plugins info` shows them;
// krino::Config's getters fall back to them. The host hands a component the options as the user
// wrote them, so a component can still tell an option left out from one set to its default.
//
// Threads: pure functions, callable from any thread. Ownership: results are returned by value.
#ifndef KRINO_PLUGIN_SCHEMA_DEFAULTS_HPP
#define KRINO_PLUGIN_SCHEMA_DEFAULTS_HPP

#include <krino/json_parse.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <string_view>

namespace krino {

// The "default" of each top-level property of `schema`, by property name. A default of null is left
// out: it says "absent", which is what an option without a value already is. Nested defaults are
// not collected: an object-valued option is the component's to complete.
inline boost::json::object schema_defaults(const boost::json::value& schema) {
  boost::json::object defaults;
  const auto* object = schema.if_object();
  if (object == nullptr) return defaults;
  const auto* properties = object->if_contains("properties");
  if (properties == nullptr || !properties->is_object()) return defaults;
  for (const auto& property : properties->get_object()) {
    const auto* declaration = property.value().if_object();
    if (declaration == nullptr) continue;
    const auto* value = declaration->if_contains("default");
    if (value != nullptr && !value->is_null()) defaults.emplace(property.key(), *value);
  }
  return defaults;
}

// The same, from the schema's JSON text; no defaults when the text is not a JSON object (the host
// rejects such a schema when it loads the plugin).
inline boost::json::object schema_defaults(std::string_view schema_text) {
  boost::system::error_code ec;
  const boost::json::value schema = krino::json::parse(schema_text, ec);
  if (ec) return {};
  return schema_defaults(schema);
}

}  // namespace krino

#endif  // KRINO_PLUGIN_SCHEMA_DEFAULTS_HPP
