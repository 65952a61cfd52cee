#include "krino/core/plugin/config_validator.hpp"

#include <krino/json_parse.hpp>
#include <boost/json.hpp>
#include <valijson/adapters/boost_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <stdexcept>

namespace krino::core {

struct ConfigValidator::Impl {
  boost::json::value schema_document;
  valijson::Schema schema;
};

ConfigValidator::ConfigValidator(const std::string& schema_text) : impl_(std::make_unique<Impl>()) {
  boost::system::error_code ec;
  impl_->schema_document = krino::json::parse(schema_text, ec);
  if (ec) throw std::invalid_argument("config schema is not valid JSON: " + ec.message());
  if (!impl_->schema_document.is_object()) throw std::invalid_argument("config schema must be a JSON object");
  try {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::BoostJsonAdapter adapter(impl_->schema_document);
    parser.populateSchema(adapter, impl_->schema);
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("config schema is not a usable JSON Schema: ") + e.what());
  }
}

ConfigValidator::~ConfigValidator() = default;

std::vector<std::string> ConfigValidator::validate(const boost::json::value& config) const {
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::ValidationResults results;
  valijson::adapters::BoostJsonAdapter target(config);
  std::vector<std::string> problems;
  if (validator.validate(impl_->schema, target, &results)) return problems;

  // valijson reports a chain of errors from the outermost keyword inwards; the innermost one
  // for each path is the useful one, so keep the last message per context.
  valijson::ValidationResults::Error error;
  std::string last_path;
  while (results.popError(error)) {
    std::string path;
    for (const auto& part : error.context) {
      if (part == "<root>") continue;
      path += part;
    }
    // Context parts look like "[match_mode]" or "[0]"; render as a JSON-pointer-ish path.
    std::string pointer;
    for (char c : path) {
      if (c == '[') pointer += '/';
      else if (c != ']' && c != '"' && c != '\'') pointer += c;
    }
    if (pointer.empty()) pointer = "/";
    std::string line = pointer + ": " + error.description;
    if (!problems.empty() && pointer == last_path) problems.back() = line;
    else problems.push_back(line);
    last_path = pointer;
  }
  return problems;
}

}  // namespace krino::core
