#pragma once
// Reading an experiment file (YAML or JSON) into a JSON tree, and applying --set overrides.
#include <boost/json/value.hpp>

#include <filesystem>
#include <string>
#include <string_view>

namespace krino::core {

// Parses YAML (a superset of JSON) into JSON. Plain scalars are typed by the YAML 1.2 core schema
// (null, true/false, integers, floats); quoted scalars stay strings. Throws a configuration error
// naming the file and line on a syntax error, on bytes that are not UTF-8, and on a document that
// aliases cannot expand safely: an alias inside its own anchor, or past the limits of YamlLimits
// (core/src/experiment/yaml_to_json.hpp; docs/experiment-file.md).
boost::json::value load_config_document(const std::filesystem::path& file);
boost::json::value parse_config_text(std::string_view text, const std::string& source_name);

// Applies one "dotted.path=value" override: object keys by name, array elements by index, missing
// objects created on the way. The value is read as a YAML scalar or flow collection, so
// runs=3, evaluators.0.threshold=0.5 and reporters=[console] all work.
void apply_override(boost::json::value& document, std::string_view assignment);

}  // namespace krino::core
