#include "tool_call_validity_evaluator.h"

#include "tool_call_operands.h"

#include "bfcl_function_docs.h"
#include "tool_argument_schema.h"

#include <krino/agent/tool_call.hpp>
#include <krino/agent/tool_definition.hpp>

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>
#include <boost/json.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace krino::agent {

namespace {

constexpr char kToolCallValidityEvaluatorSchema[] = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "tool_call_validity",
  "description": "Share of the agent's tool calls that name an offered tool and whose arguments satisfy that tool's JSON Schema (required, types, enums, nested values; numbers by value, so 5.0 is an integer).",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "tool_call_validity",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 1.0,
                  "description": "The result succeeds when score >= threshold; the default 1.0 accepts no invalid call."},
    "strict_mode": {"type": "boolean", "default": false,
                    "description": "Reject arguments a tool's schema does not list, even when the schema does not say additionalProperties: false. Applies to schemas that list their properties."},
    "bfcl_types": {"type": "boolean", "default": false,
                   "description": "Read the tool definitions as BFCL function docs and convert them as BFCL does before it calls a model: type names such as dict, float, tuple, any, list or HashMap become JSON Schema types, a parameter without a type is a string, and a function named a.b can also be called as a_b."},
    "tool_calls_key": {"type": "string", "minLength": 1, "default": "toolCalls",
                       "description": "Key of the agent's tool calls in actualOutputs ([] for no calls; a missing or null list is an error)."},
    "tools_key": {"type": "string", "minLength": 1, "default": "tools",
                  "description": "Key of the offered tool definitions in metadata (OpenAI, Anthropic or plain {name, description, parameters} form). Required."}
  },
  "additionalProperties": false
})json";

std::string count_of(std::size_t count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

// The offered tools, each with its compiled argument schema. A schema valijson cannot use is kept
// as an error and reported only if a call needs that tool.
struct OfferedTool {
  std::string name;
  std::shared_ptr<const ToolArgumentSchema> schema;
  std::string schema_error;
};
using OfferedTools = std::vector<OfferedTool>;

// How the definitions are read and checked.
struct SchemaReading {
  bool strict_mode = false;
  bool bfcl_types = false;
};

OfferedTools compile_offered_tools(const boost::json::value& list, const std::string& key, SchemaReading reading) {
  if (list.is_null())
    throw invalid_argument("metadata['" + key + "'] is null: give the tool definitions the agent was offered");
  if (!list.is_array()) throw invalid_argument("metadata['" + key + "'] must be a list of tool definitions");
  OfferedTools tools;
  tools.reserve(list.get_array().size());
  std::size_t index = 0;
  for (const boost::json::value& element : list.get_array()) {
    const ToolDefinitionView view = view_tool_definition(element, detail::element_label("metadata." + key, index++));
    OfferedTool tool{std::string(view.name), nullptr, {}};
    try {
      if (reading.bfcl_types && view.parameters != nullptr) {
        const boost::json::object converted = bfcl_parameters_as_json_schema(*view.parameters);
        tool.schema = ToolArgumentSchema::compile(&converted, reading.strict_mode);
      } else {
        tool.schema = ToolArgumentSchema::compile(view.parameters, reading.strict_mode);
      }
    } catch (const Error& e) {
      tool.schema_error = e.what();
    }
    // BFCL's OpenAI-style handlers rename a.b to a_b; the call may use either name.
    if (reading.bfcl_types && tool.name.find('.') != std::string::npos) {
      OfferedTool alias = tool;
      alias.name = bfcl_api_name(tool.name);
      tools.push_back(std::move(tool));
      tools.push_back(std::move(alias));
    } else {
      tools.push_back(std::move(tool));
    }
  }
  return tools;
}

// Agent datasets offer the same tools on every row, so the compiled tool list is kept per thread
// under the exact text of the list: a row whose list is byte-identical to a recent one skips
// parsing it altogether. Test cases built in memory (no text) are compiled every time.
std::shared_ptr<const OfferedTools> offered_tools(const TestCase& test_case, const std::string& key, SchemaReading reading) {
  struct Entry {
    bool strict_mode;
    bool bfcl_types;
    std::string text;
    std::shared_ptr<const OfferedTools> tools;
    bool read_as(SchemaReading r) const { return strict_mode == r.strict_mode && bfcl_types == r.bfcl_types; }
  };
  constexpr std::size_t kEntries = 8;
  thread_local std::vector<Entry> recent;
  thread_local std::size_t next_victim = 0;
  // A list seen on a recent row is recognised from its first bytes where the scan of metadata
  // reaches it, so the scan need not walk it to find where it ends.
  const Entry* known = nullptr;
  const char* known_at = nullptr;
  const auto recognise = [&](std::string_view rest) -> std::size_t {
    known = nullptr;
    for (const Entry& entry : recent) {
      if (entry.read_as(reading) && rest.size() >= entry.text.size() &&
          rest.compare(0, entry.text.size(), entry.text) == 0 && json::value_ends_member(rest, entry.text.size())) {
        known = &entry;
        known_at = rest.data();
        return entry.text.size();
      }
    }
    return std::string_view::npos;
  };
  const std::optional<std::string_view> raw = test_case.raw_member(Section::metadata, key, recognise);
  if (raw && !raw->empty() && raw->front() == '[') {
    if (known != nullptr && known_at == raw->data()) return known->tools;
    for (const Entry& entry : recent)
      if (entry.read_as(reading) && entry.text == *raw) return entry.tools;
    boost::system::error_code ec;
    const boost::json::value list = krino::json::parse(*raw, ec);
    if (ec) throw invalid_argument("metadata['" + key + "'] is not valid JSON: " + ec.message());
    auto tools = std::make_shared<const OfferedTools>(compile_offered_tools(list, key, reading));
    Entry entry{reading.strict_mode, reading.bfcl_types, std::string(*raw), tools};
    if (recent.size() < kEntries) {
      recent.push_back(std::move(entry));
    } else {
      recent[next_victim] = std::move(entry);
      next_victim = (next_victim + 1) % kEntries;
    }
    return tools;
  }
  const boost::json::value* list = test_case.find(Section::metadata, key);
  if (list == nullptr)
    throw invalid_argument("metadata has no '" + key + "': give the tool definitions the agent was offered");
  return std::make_shared<const OfferedTools>(compile_offered_tools(*list, key, reading));
}

const OfferedTool* find_tool(const OfferedTools& tools, std::string_view name) {
  for (const OfferedTool& tool : tools)
    if (tool.name == name) return &tool;
  return nullptr;
}

}  // namespace

const char* const ToolCallValidityEvaluator::kConfigSchema = kToolCallValidityEvaluatorSchema;

ToolCallValidityEvaluator::ToolCallValidityEvaluator(Config config)
    : common_(read_common_options(apply_schema(config, kConfigSchema))),
      strict_mode_(config.get_bool("strict_mode")),
      bfcl_types_(config.get_bool("bfcl_types")),
      tool_calls_key_(read_key_option(config, "tool_calls_key")),
      tools_key_(read_key_option(config, "tools_key")) {}

EvalResult ToolCallValidityEvaluator::evaluate(const TestCase& test_case, CallContext&) const {
  const std::shared_ptr<const OfferedTools> tools = offered_tools(test_case, tools_key_, SchemaReading{strict_mode_, bfcl_types_});
  // Views: each call's arguments are checked where they lie in the test case, not copied.
  const std::vector<ToolCallView> calls = view_actual_tool_calls(test_case, tool_calls_key_);

  // The per-call entries written as text as they are found: this runs on every case, and building
  // objects first cost an allocation per key.
  std::string validation_results;
  json::CompactWriter entries(validation_results);
  entries.begin_array();
  std::size_t valid = 0;
  std::string first_problem;
  std::vector<std::string> errors;
  for (const ToolCallView& call : calls) {
    errors.clear();
    if (const OfferedTool* tool = find_tool(*tools, call.name); tool == nullptr) {
      errors.push_back("unknown tool '" + std::string(call.name) + "': no definition in metadata." + tools_key_);
    } else if (!tool->schema) {
      throw invalid_argument("tool '" + tool->name + "' in metadata." + tools_key_ + ": " + tool->schema_error);
    } else {
      errors = tool->schema->validate(call.arguments());
    }
    const bool call_valid = errors.empty();
    if (call_valid) ++valid;
    else if (first_problem.empty()) first_problem = std::string(call.name) + ": " + errors.front();
    entries.begin_object().key("toolName").string(call.name).key("valid").boolean(call_valid).key("errors").begin_array();
    for (const std::string& problem : errors) entries.string(problem);
    entries.end_array().end_object();
  }
  entries.end_array();

  const double score = calls.empty() ? 1.0 : static_cast<double>(valid) / static_cast<double>(calls.size());
  std::string reason = calls.empty() ? "no tool calls were made"
                                     : std::to_string(valid) + " of " + count_of(calls.size(), "tool call") +
                                           (calls.size() == 1 ? " was" : " were") + " valid";
  if (!first_problem.empty()) reason += "; first problem: " + first_problem;

  EvalResult result = EvalResult::scored(common_.name, score, common_.threshold, std::move(reason));
  json::CompactWriter(result.metadata_json)
      .begin_object()
      .key("totalCalls").count(calls.size())
      .key("validCalls").count(valid)
      .key("validationResults").raw(validation_results)
      .end_object();
  return result;
}

}  // namespace krino::agent
