#pragma once
// The ABI's payload JSON Schemas (sdk/schemas/*.json), compiled into krino-plugin-host, so that
// `krino plugins check` validates what a plugin returns wherever krino is installed.
#include <boost/json/value.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace krino::plugin_host {

// {file stem, schema text} of every schema: "evalresult", "example", "trace"... (generated).
const std::vector<std::pair<std::string_view, std::string_view>>& payload_schema_texts();

// Every way `document` breaks the schema `name` ("evalresult"), one readable line each ("/score:
// ..."); empty when it is valid. Throws std::invalid_argument for a name that is not a schema.
std::vector<std::string> payload_violations(std::string_view name, const boost::json::value& document);

}  // namespace krino::plugin_host
