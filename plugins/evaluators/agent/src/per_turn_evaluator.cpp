#include "per_turn_evaluator.h"

#include <krino/agent/conversation.hpp>
#include <krino/agent/tool_call.hpp>
#include <krino/json_text.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <exception>
#include <new>
#include <optional>
#include <utility>
#include <vector>

namespace krino::agent {

namespace {

constexpr char kPerTurnEvaluatorSchema[] = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "per_turn",
  "description": "Runs a deterministic tool evaluator on every assistant turn of a conversation (the actual calls of turn i against the expected calls of turn i) and aggregates the turn scores.",
  "type": "object",
  "properties": {
    "evaluator": {"type": "string", "minLength": 1,
                  "description": "Short name of the evaluator run on each turn: a deterministic tool evaluator of this plugin, such as tool_correctness or tool_trajectory. An unknown name is an error that lists the valid ones."},
    "options": {"type": "object", "default": {},
                "description": "The inner evaluator's options, validated against its own schema. tool_calls_key may not be set: each turn's calls are always under toolCalls."},
    "aggregate": {"type": "string", "enum": ["mean", "min", "all_pass"], "default": "mean",
                  "description": "mean: the mean of the turn scores. min: the lowest turn score. all_pass: 1 when every turn succeeded under the inner evaluator's threshold, else 0."},
    "conversation_key": {"type": "string", "minLength": 1, "default": "conversation",
                         "description": "Key of the conversation in actualOutputs: a list of messages or {scenario, messages}."},
    "expected_key": {"type": "string", "minLength": 1, "default": "toolCallsByTurn",
                     "description": "Key in expectedOutputs of the expected calls: a list holding one list of calls per assistant turn, or a conversation whose assistant messages carry the expected calls."},
    "tools_key": {"type": "string", "minLength": 1, "default": "tools",
                  "description": "Key in metadata of the tool definitions, passed to every turn as metadata.tools."},
    "name": {"type": "string", "minLength": 1,
             "description": "Name of the result; results are aggregated and gated by this name. Default: the evaluator's short name followed by _per_turn, such as tool_correctness_per_turn."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 1.0,
                  "description": "The result succeeds when the aggregate score >= threshold."}
  },
  "required": ["evaluator"],
  "additionalProperties": false
})json";

TurnAggregate read_aggregate(const Config& config) {
  const std::string aggregate = read_choice(config, "aggregate", {"mean", "min", "all_pass"});
  if (aggregate == "min") return TurnAggregate::min;
  if (aggregate == "all_pass") return TurnAggregate::all_pass;
  return TurnAggregate::mean;
}

const char* aggregate_name(TurnAggregate aggregate) {
  switch (aggregate) {
    case TurnAggregate::mean: return "mean";
    case TurnAggregate::min: return "min";
    case TurnAggregate::all_pass: return "all_pass";
  }
  return "mean";
}

std::string required_evaluator(const Config& config) {
  std::string name = config.get_string("evaluator");
  if (name.empty())
    throw invalid_argument("option 'evaluator' is required: one of " + turn_evaluator_names());
  return name;
}

boost::json::object read_inner_options(const Config& config) {
  const boost::json::value* options = config.find("options");
  if (options == nullptr) return {};
  if (!options->is_object()) throw invalid_argument("option 'options' must be an object (the inner evaluator's options)");
  return options->get_object();
}

// A score for a reason text: at most two decimals, shortest form ("0.83", "1.0").
std::string short_number(double value) {
  std::string text;
  json::append_double(text, std::round(value * 100.0) / 100.0);
  return text;
}

boost::json::object turn_case(const std::vector<ToolCall>& actual, const std::vector<ToolCall>& expected,
                              const boost::json::value* tools) {
  boost::json::object actual_outputs;
  actual_outputs["toolCalls"] = write_tool_calls(actual);
  boost::json::object expected_outputs;
  expected_outputs["toolCalls"] = write_tool_calls(expected);
  boost::json::object metadata;
  if (tools != nullptr && !tools->is_null()) metadata["tools"] = *tools;
  boost::json::object document;
  document["inputs"] = boost::json::object();
  document["actualOutputs"] = std::move(actual_outputs);
  document["expectedOutputs"] = std::move(expected_outputs);
  document["metadata"] = std::move(metadata);
  return document;
}

}  // namespace

const char* const PerTurnEvaluator::kConfigSchema = kPerTurnEvaluatorSchema;

PerTurnEvaluator::PerTurnEvaluator(Config config)
    : PerTurnEvaluator(config, make_turn_evaluator(required_evaluator(check_option_names(config, kConfigSchema)),
                                                   read_inner_options(config))) {}

PerTurnEvaluator::PerTurnEvaluator(Config config, std::unique_ptr<const TurnEvaluator> inner)
    : evaluator_(required_evaluator(apply_schema(config, kConfigSchema))),
      inner_(std::move(inner)),
      aggregate_(read_aggregate(config)),
      // `name` has no schema default: left out, it is the inner evaluator's short name + "_per_turn".
      common_(read_common_options(config, evaluator_ + "_per_turn", config.get_double("threshold"))),
      conversation_key_(read_key_option(config, "conversation_key")),
      expected_key_(read_key_option(config, "expected_key")),
      tools_key_(read_key_option(config, "tools_key")) {}

namespace {

// Expected calls per turn: a list of lists of calls, or a conversation (a list of messages, or
// an object with "messages") whose assistant messages carry them. The first element decides
// which: a list starts the per-turn lists, an object starts a conversation.
std::vector<std::vector<ToolCall>> read_expected_turns(const boost::json::value& value, const std::string& where) {
  if (value.is_object()) return read_conversation(value, where).tool_calls_by_turn();
  if (!value.is_array())
    throw invalid_argument("'" + where + "' must be a list of per-turn lists of tool calls, or a conversation");
  const boost::json::array& list = value.get_array();
  if (!list.empty() && list.front().is_object()) return read_conversation(value, where).tool_calls_by_turn();
  std::vector<std::vector<ToolCall>> turns;
  turns.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string turn = where + "[" + std::to_string(i) + "]";
    if (!list[i].is_array())
      throw invalid_argument("'" + turn + "' must be the list of tool calls expected in turn " + std::to_string(i) +
                             " (the first element is a list, so every element is one turn's list)");
    turns.push_back(read_tool_calls(list[i], turn));
  }
  return turns;
}

}  // namespace

EvalResult PerTurnEvaluator::evaluate(const TestCase& test_case, CallContext& ctx) const {
  const boost::json::value* conversation_value = test_case.find(Section::actual_outputs, conversation_key_);
  if (conversation_value == nullptr || conversation_value->is_null())
    throw invalid_argument("actualOutputs has no '" + conversation_key_ + "': give the conversation to score turn by turn");
  const std::vector<std::vector<ToolCall>> actual =
      read_conversation(*conversation_value, "actualOutputs." + conversation_key_).tool_calls_by_turn();

  std::vector<std::vector<ToolCall>> expected;
  const boost::json::value* expected_value = test_case.find(Section::expected_outputs, expected_key_);
  if (expected_value != nullptr && !expected_value->is_null())
    expected = read_expected_turns(*expected_value, "expectedOutputs." + expected_key_);
  else if (inner_->reads_expected_calls())
    throw invalid_argument("expectedOutputs has no '" + expected_key_ +
                           "': give the calls expected in each assistant turn, as a list of lists or as a conversation");

  const boost::json::value* tools = test_case.find(Section::metadata, tools_key_);
  const std::size_t turn_count = std::max(actual.size(), expected.size());
  static const std::vector<ToolCall> kNoCalls;

  boost::json::array turns;
  std::vector<std::string> failures;
  std::optional<std::size_t> unscored_turn;
  std::string unscored_reason;
  double sum = 0.0;
  double lowest = 1.0;
  std::size_t passed = 0;
  for (std::size_t i = 0; i < turn_count; ++i) {
    const boost::json::object document =
        turn_case(i < actual.size() ? actual[i] : kNoCalls, i < expected.size() ? expected[i] : kNoCalls, tools);
    EvalResult turn;
    try {
      turn = inner_->evaluate(TestCase(document), ctx);
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const Error& e) {
      throw Error(e.code(), "turn " + std::to_string(i) + ": " + e.what());
    } catch (const std::exception& e) {
      throw Error(KRINO_INTERNAL, "turn " + std::to_string(i) + ": " + e.what());
    }
    boost::json::object entry;
    entry["turn"] = i;
    entry["score"] = turn.score ? boost::json::value(*turn.score) : boost::json::value(nullptr);
    entry["success"] = turn.success;
    entry["reason"] = turn.reason;
    // Moved when built as an object; read from the text when the inner evaluator wrote it so.
    boost::json::object metadata = turn.metadata_json.empty() ? std::move(turn.metadata) : turn.metadata_object();
    if (!metadata.empty()) entry["metadata"] = std::move(metadata);
    turns.push_back(std::move(entry));

    if (!turn.score) {
      if (!unscored_turn) {
        unscored_turn = i;
        unscored_reason = turn.reason;
      }
      continue;
    }
    sum += *turn.score;
    lowest = std::min(lowest, *turn.score);
    if (turn.success) ++passed;
    else failures.push_back("turn " + std::to_string(i) + " failed: " + turn.reason);
  }

  const std::string turns_text = std::to_string(turn_count) + (turn_count == 1 ? " turn" : " turns");
  EvalResult result;
  if (unscored_turn) {
    result = EvalResult::unscored(common_.name, common_.threshold,
                                  turns_text + "; turn " + std::to_string(*unscored_turn) +
                                      " could not be scored: " + unscored_reason);
  } else {
    double score = 1.0;
    std::string reason = turns_text;
    if (turn_count == 0) {
      reason += ": no assistant turns and no expected turns";
    } else if (aggregate_ == TurnAggregate::mean) {
      score = sum / static_cast<double>(turn_count);
      reason += "; mean " + short_number(score);
    } else if (aggregate_ == TurnAggregate::min) {
      score = lowest;
      reason += "; min " + short_number(score);
    } else {
      score = passed == turn_count ? 1.0 : 0.0;
      reason += "; " + std::to_string(passed) + " of " + std::to_string(turn_count) + " passed";
    }
    for (const std::string& failure : failures) reason += "; " + failure;
    result = EvalResult::scored(common_.name, score, common_.threshold, std::move(reason));
  }
  result.metadata["evaluator"] = evaluator_;
  result.metadata["aggregate"] = aggregate_name(aggregate_);
  result.metadata["turnCount"] = turn_count;
  result.metadata["actualTurns"] = actual.size();
  result.metadata["expectedTurns"] = expected.size();
  result.metadata["turns"] = std::move(turns);
  return result;
}

}  // namespace krino::agent
