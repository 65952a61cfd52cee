#include "tool_argument_schema.h"

#include "compiled_argument_schema.h"

#include <krino/json_text.hpp>
#include <krino/plugin.hpp>

#include <valijson/adapters/boost_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <cmath>
#include <cstdint>
#include <exception>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace krino::agent {

struct ToolArgumentSchema::Impl {
  boost::json::value document;  // the schema as compiled (integral numbers made integers)
  valijson::Schema schema;
  // Direct checks that prove most arguments valid without valijson; nullptr when the schema uses
  // a keyword they do not handle.
  std::unique_ptr<const CompiledArgumentSchema> compiled;
  bool accepts_anything = false;
};

namespace {

// Enough for every tool a realistic dataset declares; a thread that sees more starts over.
constexpr std::size_t kCacheCapacity = 512;

bool is_integral(double number) {
  return std::isfinite(number) && number == std::trunc(number) && number >= -9.2e18 && number <= 9.2e18;
}

// One step of a valijson error context: "[city]" or "[0]".
struct PathStep {
  std::string text;
  std::optional<std::size_t> index;
};

std::vector<PathStep> read_context(const std::vector<std::string>& context) {
  std::vector<PathStep> steps;
  for (const std::string& entry : context) {
    if (entry == "<root>" || entry.size() < 2 || entry.front() != '[' || entry.back() != ']') continue;
    PathStep step{entry.substr(1, entry.size() - 2), std::nullopt};
    if (!step.text.empty() && step.text.find_first_not_of("0123456789") == std::string::npos && step.text.size() < 10)
      step.index = static_cast<std::size_t>(std::stoul(step.text));
    steps.push_back(std::move(step));
  }
  return steps;
}

std::string path_text(const std::vector<PathStep>& steps) {
  std::string text;
  for (const PathStep& step : steps) {
    if (step.index) {
      text += "[" + step.text + "]";
    } else {
      if (!text.empty()) text += '.';
      text += step.text;
    }
  }
  return text;
}

// The argument value at `steps`, or nullptr. Numeric steps index arrays and name object members
// alike, since valijson writes both as "[n]".
const boost::json::value* value_at(const boost::json::value& root, const std::vector<PathStep>& steps) {
  const boost::json::value* at = &root;
  for (const PathStep& step : steps) {
    if (at->is_object()) {
      at = at->get_object().if_contains(step.text);
    } else if (at->is_array() && step.index && *step.index < at->get_array().size()) {
      at = &at->get_array()[*step.index];
    } else {
      return nullptr;
    }
    if (at == nullptr) return nullptr;
  }
  return at;
}

// The sub-schema that governs the value at `steps`, following properties and items only.
const boost::json::object* schema_at(const boost::json::value& schema, const std::vector<PathStep>& steps,
                                     const boost::json::value& arguments) {
  const boost::json::value* at = &schema;
  const boost::json::value* value = &arguments;
  for (const PathStep& step : steps) {
    if (!at->is_object() || value == nullptr) return nullptr;
    const boost::json::object& node = at->get_object();
    if (value->is_array()) {
      const boost::json::value* items = node.if_contains("items");
      if (items == nullptr) return nullptr;
      if (items->is_array()) {
        if (!step.index || *step.index >= items->get_array().size()) return nullptr;
        at = &items->get_array()[*step.index];
      } else {
        at = items;
      }
      value = step.index && *step.index < value->get_array().size() ? &value->get_array()[*step.index] : nullptr;
    } else {
      const boost::json::value* properties = node.if_contains("properties");
      const boost::json::value* property =
          properties != nullptr && properties->is_object() ? properties->get_object().if_contains(step.text) : nullptr;
      if (property == nullptr) property = node.if_contains("additionalProperties");
      if (property == nullptr) return nullptr;
      at = property;
      value = value->is_object() ? value->get_object().if_contains(step.text) : nullptr;
    }
  }
  return at->is_object() ? &at->get_object() : nullptr;
}

std::string kind_name(const boost::json::value& value) {
  switch (value.kind()) {
    case boost::json::kind::null: return "null";
    case boost::json::kind::bool_: return "a boolean";
    case boost::json::kind::int64:
    case boost::json::kind::uint64: return "an integer";
    case boost::json::kind::double_: return "a number with a fraction";
    case boost::json::kind::string: return "a string";
    case boost::json::kind::array: return "an array";
    case boost::json::kind::object: return "an object";
  }
  return "a value";
}

std::string declared_types(const boost::json::object& schema) {
  const boost::json::value* type = schema.if_contains("type");
  if (type == nullptr) return {};
  if (type->is_string()) return std::string(type->get_string());
  std::string text;
  if (type->is_array()) {
    for (const auto& entry : type->get_array()) {
      if (!entry.is_string()) continue;
      if (!text.empty()) text += " or ";
      text += entry.get_string();
    }
  }
  return text;
}

std::string quoted_name(std::string_view text) { return "'" + std::string(text) + "'"; }

// valijson's description of one failure, said in terms of the tool's arguments.
std::string describe(const valijson::ValidationResults::Error& error, const boost::json::value& schema,
                     const boost::json::value& arguments) {
  const std::vector<PathStep> steps = read_context(error.context);
  const std::string path = path_text(steps);
  const std::string& said = error.description;
  const std::string where = path.empty() ? std::string() : quoted_name(path) + ": ";

  auto quoted_tail = [&](std::string_view prefix) -> std::optional<std::string> {
    if (said.rfind(prefix, 0) != 0) return std::nullopt;
    std::string tail = said.substr(prefix.size());
    if (!tail.empty() && tail.back() == '.') tail.pop_back();
    return tail;
  };

  if (auto name = quoted_tail("Missing required property ")) {
    return path.empty() ? "missing required argument " + *name : where + "missing required property " + *name;
  }
  if (auto name = quoted_tail("Object contains a property that could not be validated using 'properties' or "
                              "'additionalProperties' constraints: ")) {
    return path.empty() ? "unexpected argument " + *name : where + "unexpected property " + *name;
  }
  const boost::json::value* value = value_at(arguments, steps);
  const boost::json::object* governing = schema_at(schema, steps, arguments);
  if (said.rfind("Value type not permitted by 'type' constraint", 0) == 0 && value != nullptr && governing != nullptr) {
    const std::string types = declared_types(*governing);
    if (!types.empty()) return where + "must be " + types + ", got " + kind_name(*value);
  }
  if (said.rfind("Failed to match against any enum values", 0) == 0 && value != nullptr && governing != nullptr) {
    if (const boost::json::value* allowed = governing->if_contains("enum"))
      return where + json::to_compact_json(*value) + " is not one of " + json::to_compact_json(*allowed);
  }
  return where + said;
}

// Messages that only say a failure below was carried up to a parent.
bool is_carried_up(const std::string& description) {
  return description.rfind("Failed to validate against schema associated with property name", 0) == 0 ||
         description.rfind("Failed to validate item #", 0) == 0;
}

}  // namespace

bool make_integral_numbers_integers(boost::json::value& value) {
  switch (value.kind()) {
    case boost::json::kind::double_:
      if (!is_integral(value.get_double())) return false;
      value = static_cast<std::int64_t>(value.get_double());
      return true;
    case boost::json::kind::array: {
      bool changed = false;
      for (auto& element : value.get_array()) changed = make_integral_numbers_integers(element) || changed;
      return changed;
    }
    case boost::json::kind::object: {
      bool changed = false;
      for (auto& member : value.get_object()) changed = make_integral_numbers_integers(member.value()) || changed;
      return changed;
    }
    default:
      return false;
  }
}

ToolArgumentSchema::ToolArgumentSchema(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ToolArgumentSchema::~ToolArgumentSchema() = default;

std::shared_ptr<const ToolArgumentSchema> ToolArgumentSchema::compile(const boost::json::object* parameters,
                                                                      bool no_unexpected_arguments) {
  thread_local std::unordered_map<std::string, std::shared_ptr<const ToolArgumentSchema>> cache;
  std::string key = no_unexpected_arguments ? "S" : "L";
  if (parameters != nullptr) json::append_compact_json(key, *parameters);
  if (auto found = cache.find(key); found != cache.end()) return found->second;

  auto impl = std::make_unique<Impl>();
  if (parameters == nullptr) {
    impl->accepts_anything = true;
  } else {
    impl->document = *parameters;
    make_integral_numbers_integers(impl->document);
    boost::json::object& root = impl->document.get_object();
    if (no_unexpected_arguments && root.contains("properties")) root["additionalProperties"] = false;
    try {
      valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
      valijson::adapters::BoostJsonAdapter adapter(impl->document);
      parser.populateSchema(adapter, impl->schema);
    } catch (const std::exception& e) {
      throw invalid_argument(std::string("the schema is not a usable JSON Schema: ") + e.what());
    }
    impl->compiled = CompiledArgumentSchema::compile(impl->document);
  }
  std::shared_ptr<const ToolArgumentSchema> compiled(new ToolArgumentSchema(std::move(impl)));
  if (cache.size() >= kCacheCapacity) cache.clear();
  cache.emplace(std::move(key), compiled);
  return compiled;
}

bool ToolArgumentSchema::has_direct_checks() const { return impl_->compiled != nullptr; }

std::vector<std::string> ToolArgumentSchema::validate(const boost::json::object& arguments) const {
  if (impl_->accepts_anything || (impl_->compiled != nullptr && impl_->compiled->accepts(arguments))) return {};
  return validate_with_valijson(arguments);
}

std::vector<std::string> ToolArgumentSchema::validate_with_valijson(const boost::json::object& arguments) const {
  std::vector<std::string> problems;
  if (impl_->accepts_anything) return problems;
  boost::json::value target(arguments);
  make_integral_numbers_integers(target);
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::ValidationResults results;
  valijson::adapters::BoostJsonAdapter adapter(target);
  if (validator.validate(impl_->schema, adapter, &results)) return problems;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    if (is_carried_up(error.description)) continue;
    problems.push_back(describe(error, impl_->document, target));
  }
  return problems;
}

}  // namespace krino::agent
