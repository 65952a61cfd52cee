#include "payload_schemas.hpp"

#include <krino/json_parse.hpp>

#include <boost/json.hpp>
#include <valijson/adapters/boost_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <map>
#include <memory>
#include <stdexcept>

namespace krino::plugin_host {
namespace {

namespace json = boost::json;

constexpr std::string_view kSchemaIdPrefix = "https://krino.dev/schemas/";
constexpr std::string_view kSchemaIdSuffix = "-1.json";

std::string_view schema_text(std::string_view name) {
  for (const auto& [stem, text] : payload_schema_texts())
    if (stem == name) return text;
  throw std::invalid_argument("no payload schema '" + std::string(name) + "'");
}

// Schemas refer to each other by $id (https://krino.dev/schemas/<name>-1.json): valijson asks for
// those documents here.
const json::value* fetch_payload_schema(const std::string& uri) {
  std::string_view id = uri;
  if (const size_t hash = id.find('#'); hash != std::string_view::npos) id = id.substr(0, hash);
  if (id.size() <= kSchemaIdPrefix.size() + kSchemaIdSuffix.size() || id.substr(0, kSchemaIdPrefix.size()) != kSchemaIdPrefix ||
      id.substr(id.size() - kSchemaIdSuffix.size()) != kSchemaIdSuffix)
    return nullptr;
  const std::string_view name = id.substr(kSchemaIdPrefix.size(), id.size() - kSchemaIdPrefix.size() - kSchemaIdSuffix.size());
  try {
    return new json::value(krino::json::parse(schema_text(name)));
  } catch (const std::exception&) {
    return nullptr;
  }
}

void free_payload_schema(const json::value* document) { delete document; }

const valijson::Schema& payload_schema(std::string_view name) {
  // krino-plugin-host checks from one thread; the parsed schemas live for the process.
  static std::map<std::string, std::unique_ptr<valijson::Schema>, std::less<>> parsed;
  auto it = parsed.find(name);
  if (it != parsed.end()) return *it->second;
  const json::value document = krino::json::parse(schema_text(name));
  auto schema = std::make_unique<valijson::Schema>();
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  valijson::adapters::BoostJsonAdapter adapter(document);
  parser.populateSchema(adapter, *schema, fetch_payload_schema, free_payload_schema);
  return *parsed.emplace(std::string(name), std::move(schema)).first->second;
}

}  // namespace

std::vector<std::string> payload_violations(std::string_view name, const json::value& document) {
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::BoostJsonAdapter target(document);
  if (validator.validate(payload_schema(name), target, &results)) return {};
  std::vector<std::string> lines;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    std::string where;
    for (const auto& part : error.context) where += part;
    lines.push_back(where + ": " + error.description);
  }
  if (lines.empty()) lines.emplace_back("does not match the schema");
  return lines;
}

}  // namespace krino::plugin_host
