#include "turn_evaluator_factory.h"

#include "tool_call_validity_evaluator.h"
#include "tool_correctness_evaluator.h"
#include "tool_efficiency_evaluator.h"
#include "tool_error_evaluator.h"
#include "tool_trajectory_evaluator.h"

#include <valijson/adapters/boost_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <exception>
#include <utility>
#include <vector>
#include <krino/json_parse.hpp>

namespace krino::agent {

namespace {

template <class Evaluator, bool kReadsExpected>
class TurnEvaluatorOf final : public TurnEvaluator {
 public:
  explicit TurnEvaluatorOf(const Config& options) : evaluator_(options) {}
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const override {
    return evaluator_.evaluate(test_case, ctx);
  }
  bool reads_expected_calls() const override { return kReadsExpected; }

 private:
  Evaluator evaluator_;
};

struct TurnEvaluatorKind {
  std::string_view name;
  const char* (*schema)();
  std::unique_ptr<TurnEvaluator> (*create)(const Config& options);
};

template <class Evaluator>
const char* schema_of() {
  return Evaluator::kConfigSchema;
}

template <class Evaluator, bool kReadsExpected>
std::unique_ptr<TurnEvaluator> create(const Config& options) {
  return std::make_unique<TurnEvaluatorOf<Evaluator, kReadsExpected>>(options);
}

// Add an evaluator here (and list it in docs/plugins/agent.md, "Per-turn scoring").
const TurnEvaluatorKind kKinds[] = {
    {"tool_correctness", &schema_of<ToolCorrectnessEvaluator>, &create<ToolCorrectnessEvaluator, true>},
    {"tool_trajectory", &schema_of<ToolTrajectoryEvaluator>, &create<ToolTrajectoryEvaluator, true>},
    {"tool_error", &schema_of<ToolErrorEvaluator>, &create<ToolErrorEvaluator, false>},
    {"tool_efficiency", &schema_of<ToolEfficiencyEvaluator>, &create<ToolEfficiencyEvaluator, false>},
    {"tool_call_validity", &schema_of<ToolCallValidityEvaluator>, &create<ToolCallValidityEvaluator, false>},
};

// Options per_turn sets itself for every turn, so a user may not: the calls are always under
// toolCalls and the tool definitions under metadata.tools.
constexpr std::string_view kDecidedOptions[] = {"tool_calls_key", "tools_key"};

// The schema problems of `options`, one line per JSON path ("options/match_mode: ..."): valijson
// reports a chain from the outermost keyword inwards, and the innermost message per path is the
// one that helps.
std::vector<std::string> schema_problems(const char* schema_text, const boost::json::object& options) {
  const boost::json::value schema_document = krino::json::parse(schema_text);
  valijson::Schema schema;
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  const valijson::adapters::BoostJsonAdapter schema_adapter(schema_document);
  parser.populateSchema(schema_adapter, schema);

  const boost::json::value target_document = options;
  const valijson::adapters::BoostJsonAdapter target(target_document);
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::ValidationResults results;
  std::vector<std::string> problems;
  if (validator.validate(schema, target, &results)) return problems;
  valijson::ValidationResults::Error error;
  std::string last_path;
  while (results.popError(error)) {
    std::string path = "options";
    for (const std::string& part : error.context) {
      if (part == "<root>") continue;
      path += '/';
      for (char c : part)
        if (c != '[' && c != ']' && c != '"' && c != '\'') path += c;
    }
    std::string line = path + ": " + error.description;
    if (!problems.empty() && path == last_path) problems.back() = std::move(line);
    else problems.push_back(std::move(line));
    last_path = path;
  }
  return problems;
}

}  // namespace

std::string turn_evaluator_names() {
  std::string names;
  for (const TurnEvaluatorKind& kind : kKinds) {
    if (!names.empty()) names += ", ";
    names += kind.name;
  }
  return names;
}

std::unique_ptr<TurnEvaluator> make_turn_evaluator(std::string_view name, const boost::json::object& options) {
  for (const TurnEvaluatorKind& kind : kKinds) {
    if (kind.name != name) continue;
    for (std::string_view decided : kDecidedOptions)
      if (options.contains(decided))
        throw invalid_argument("option 'options." + std::string(decided) + "' cannot be set: per_turn gives " +
                               std::string(name) + " each turn's calls under 'toolCalls' and the tools under "
                               "'metadata.tools' (use per_turn's own tools_key)");
    std::vector<std::string> problems;
    try {
      problems = schema_problems(kind.schema(), options);
    } catch (const std::exception& e) {
      // The inner schemas are constants of this plugin; a failure here is a bug, not bad input.
      throw Error(KRINO_INTERNAL, "the configuration schema of " + std::string(name) + " is unusable: " + e.what());
    }
    if (!problems.empty()) {
      std::string message = "option 'options' is not a valid configuration of " + std::string(name) + ": ";
      for (std::size_t i = 0; i < problems.size(); ++i) message += (i == 0 ? "" : "; ") + problems[i];
      throw invalid_argument(message);
    }
    try {
      return kind.create(Config(options));
    } catch (const Error& e) {
      throw Error(e.code(), "option 'options' (" + std::string(name) + "): " + e.what());
    }
  }
  throw invalid_argument("option 'evaluator' must be one of " + turn_evaluator_names() + ", got '" + std::string(name) +
                         "'");
}

}  // namespace krino::agent
