#include "openjudge_rubric_grader.h"

#include "test_case_fields.h"
#include "value_rendering.h"

#include <krino/evaluator_options.hpp>

#include <algorithm>
#include <map>
#include <krino/json_parse.hpp>

namespace krino::judge::openjudge {
namespace {

constexpr double kBinaryThreshold = 0.5;  // on {0, 1}: a 1 passes, a 0 fails, a mean of votes passes on a majority
constexpr double kFivePointThreshold = 0.75;  // on 1..5: a 4 ("reasonable") passes, a 3 fails

enum class Scale { binary, one_to_five };

RubricDescriptor described(RubricKind kind, std::string name, std::string openjudge_class, std::string description,
                           Scale scale) {
  RubricDescriptor d{};
  d.kind = kind;
  d.id = "krino." + name;
  d.name = std::move(name);
  d.openjudge_class = std::move(openjudge_class);
  d.description = std::move(description);
  d.scale_min = scale == Scale::one_to_five ? 1.0 : 0.0;
  d.scale_max = scale == Scale::one_to_five ? 5.0 : 1.0;
  d.default_threshold = scale == Scale::one_to_five ? kFivePointThreshold : kBinaryThreshold;
  return d;
}

RubricDescriptor step_grader(RubricKind kind, std::string name, std::string openjudge_class, std::string description,
                             std::vector<std::string> fields) {
  RubricDescriptor d =
      described(kind, std::move(name), std::move(openjudge_class), std::move(description), Scale::binary);
  d.step_fields = std::move(fields);
  return d;
}

RubricDescriptor tool_grader(RubricKind kind, std::string name, std::string openjudge_class, std::string description,
                             Scale scale, bool shows_request, bool shows_responses, WithoutCalls without_calls) {
  RubricDescriptor d = described(kind, std::move(name), std::move(openjudge_class), std::move(description), scale);
  d.shows_request = shows_request;
  d.shows_responses = shows_responses;
  d.without_calls = without_calls;
  return d;
}

const std::vector<RubricDescriptor>& descriptors() {
  static const std::vector<RubricDescriptor> table = {
      step_grader(RubricKind::action_alignment, "action_alignment", "ActionAlignmentGrader",
                  "Whether the agent's action carries out its stated plan (LLM judge, 0 or 1)", {"plan", "action"}),
      tool_grader(RubricKind::tool_selection_quality, "tool_selection_quality", "ToolSelectionGrader",
                  "How well the agent chose its tools for the request, judged 1-5 by an LLM", Scale::one_to_five,
                  true, false, WithoutCalls::lowest),
      tool_grader(RubricKind::tool_call_accuracy, "tool_call_accuracy", "ToolCallAccuracyGrader",
                  "Relevance and correctness of the agent's tool calls, judged 1-5 by an LLM", Scale::one_to_five,
                  true, true, WithoutCalls::lowest),
      tool_grader(RubricKind::tool_call_success, "tool_call_success", "ToolCallSuccessGrader",
                  "Whether every tool call ran without a technical failure (LLM judge, 0 or 1)", Scale::binary,
                  false, true, WithoutCalls::highest),
      tool_grader(RubricKind::tool_parameter_check, "tool_parameter_check", "ToolParameterCheckGrader",
                  "Whether every tool call's parameters are complete, correct and grounded (LLM judge, 0 or 1)",
                  Scale::binary, true, false, WithoutCalls::highest),
      step_grader(RubricKind::memory_accuracy, "memory_accuracy", "MemoryAccuracyGrader",
                  "Whether the agent's memory records only what it observed (LLM judge, 0 or 1)",
                  {"observation", "memory"}),
      step_grader(RubricKind::memory_detail_preservation, "memory_detail_preservation",
                  "MemoryDetailPreservationGrader",
                  "Whether the agent's memory keeps the observation's specific details (LLM judge, 0 or 1)",
                  {"observation", "memory"}),
      step_grader(RubricKind::memory_retrieval_effectiveness, "memory_retrieval_effectiveness",
                  "MemoryRetrievalEffectivenessGrader",
                  "Whether the agent's plan uses what its memory holds (LLM judge, 0 or 1)",
                  {"plan", "observation", "memory"}),
      step_grader(RubricKind::plan_feasibility, "plan_feasibility", "PlanFeasibilityGrader",
                  "Whether the agent's plan can be carried out in the situation it is in (LLM judge, 0 or 1)",
                  {"plan", "observation", "memory"}),
      step_grader(RubricKind::reflection_accuracy, "reflection_accuracy", "ReflectionAccuracyGrader",
                  "Whether the agent's reflection mentions only what it observed (LLM judge, 0 or 1)",
                  {"observation", "reflection"}),
      step_grader(RubricKind::reflection_outcome_understanding, "reflection_outcome_understanding",
                  "ReflectionOutcomeUnderstandingGrader",
                  "Whether the agent's reflection reads the outcome of its action correctly (LLM judge, 0 or 1)",
                  {"observation", "reflection"}),
      step_grader(RubricKind::reflection_progress_awareness, "reflection_progress_awareness",
                  "ReflectionProgressAwarenessGrader",
                  "Whether the agent's reflection judges its progress towards the goal correctly (LLM judge, 0 or 1)",
                  {"observation", "reflection"}),
  };
  return table;
}

boost::json::object property(std::string_view type, std::string description) {
  boost::json::object p{{"type", type}, {"description", std::move(description)}};
  if (type == "string") p["minLength"] = 1;
  return p;
}

std::string make_schema(const RubricDescriptor& d) {
  boost::json::object properties;
  boost::json::object name = property("string", "Name of the result; results are aggregated and gated by this name.");
  name["default"] = d.name;
  properties["name"] = std::move(name);
  boost::json::object threshold = property(
      "number", "The result succeeds when score >= threshold; score = (native - min) / (max - min) on the judge's " +
                    std::string(d.scale_min == 1.0 ? "1-5" : "0/1") + " scale.");
  threshold["minimum"] = 0;
  threshold["maximum"] = 1;
  threshold["default"] = d.default_threshold;
  properties["threshold"] = std::move(threshold);
  properties["judge"] =
      property("string", "Name of a judge configured in the experiment file; the default judge when absent.");
  // votes and vote_aggregation, exactly as every other judge evaluator declares them.
  const boost::json::object voting = krino::json::parse("{" KRINO_JUDGE_VOTING_PROPERTIES R"("end": {}})").as_object();
  for (std::string_view option : {"votes", "vote_aggregation"}) properties[option] = voting.at(option);
  properties["prompt"] = property("string", "A prompt template replacing the built-in prompts/" + d.prompt_name() +
                                                 ".txt; it must ask for {\"score\", \"reason\"}.");
  auto key_option = [&](const std::string& option, std::string_view fallback, std::string description) {
    boost::json::object p = property("string", std::move(description));
    p["default"] = fallback;
    properties[option] = std::move(p);
  };
  key_option("messages_key", MessagesLocation::kDefaultKey,
             "Key of actualOutputs holding the OpenJudge message list; without it 'conversation', then 'messages'." +
                 std::string(d.is_tool_grader() ? "" : " Shown as the history when there is no history."));
  if (d.is_tool_grader()) {
    key_option("tools_key", "tools", "Key of metadata holding the tool definitions (required when there are calls).");
    if (d.shows_request)
      key_option("input_key", "input", "Key of inputs holding the request when the messages have no user message.");
  } else {
    for (const std::string& field : d.step_fields)
      key_option(field + "_key", field, "Key of actualOutputs holding the agent's " + field + " (required).");
    key_option("history_key", "history", "Key of actualOutputs holding the earlier steps (optional).");
    key_option("context_key", "context", "Key of the task context: actualOutputs first, then metadata (optional).");
  }
  const boost::json::object schema{{"$schema", "http://json-schema.org/draft-07/schema#"},
                                   {"title", d.name},
                                   {"description", d.description},
                                   {"type", "object"},
                                   {"properties", std::move(properties)},
                                   {"additionalProperties", false}};
  return boost::json::serialize(schema);
}

Variables variables_of(const RubricDescriptor& d) {
  if (d.is_tool_grader()) {
    Variables v = {"tool_definitions", "tool_calls"};
    if (d.shows_request) v.insert("query");
    return v;
  }
  Variables v(d.step_fields.begin(), d.step_fields.end());
  v.insert("history");
  v.insert("context");
  return v;
}

bool blank(std::string_view text) { return text.find_first_not_of(" \t\r\n") == std::string_view::npos; }

std::string shown(std::string text) { return blank(text) ? std::string("(empty)") : text; }

std::string render_listed(const boost::json::value& value) {
  if (const boost::json::array* list = value.if_array())
    return list->empty() ? "(none)" : render_chunks(context_chunks(value));
  return shown(render_value(value));
}

}  // namespace

const RubricDescriptor& rubric_descriptor(RubricKind kind) {
  for (const RubricDescriptor& d : descriptors())
    if (d.kind == kind) return d;
  throw Error(KRINO_INTERNAL, "unknown OpenJudge rubric grader");
}

const std::vector<RubricKind>& all_rubric_kinds() {
  static const std::vector<RubricKind> kinds = [] {
    std::vector<RubricKind> k;
    for (const RubricDescriptor& d : descriptors()) k.push_back(d.kind);
    return k;
  }();
  return kinds;
}

const char* rubric_config_schema(RubricKind kind) {
  static const std::map<RubricKind, std::string> schemas = [] {
    std::map<RubricKind, std::string> m;
    for (const RubricDescriptor& d : descriptors()) m.emplace(d.kind, make_schema(d));
    return m;
  }();
  return schemas.at(kind).c_str();
}

RubricGrader::RubricGrader(const RubricDescriptor& descriptor, Config config)
    : descriptor_(&descriptor),
      settings_(read_judge_settings(apply_schema(config, rubric_config_schema(descriptor.kind)),
                                    descriptor.prompt_name(), variables_of(descriptor))),
      messages_(config) {
  // The key options the grader's schema declares (make_schema), with its defaults.
  if (descriptor.is_tool_grader()) {
    tools_key_ = read_key_option(config, "tools_key");
    if (descriptor.shows_request) input_key_ = read_key_option(config, "input_key");
  } else {
    for (const std::string& field : descriptor.step_fields) field_keys_.push_back(read_key_option(config, field + "_key"));
    history_key_ = read_key_option(config, "history_key");
    context_key_ = read_key_option(config, "context_key");
  }
}

PromptTemplate::Values RubricGrader::step_values(const TestCase& test_case) const {
  PromptTemplate::Values values;
  for (std::size_t i = 0; i < field_keys_.size(); ++i)
    values[descriptor_->step_fields[i]] =
        shown(render_value(required_member(test_case, Section::actual_outputs, field_keys_[i], descriptor_->name)));

  std::string history = "(none)";
  if (const boost::json::value* given = test_case.find(Section::actual_outputs, history_key_);
      given != nullptr && !given->is_null()) {
    history = render_listed(*given);
  } else if (const boost::json::array* messages = messages_.find(test_case);
             messages != nullptr && !messages->empty()) {
    history = shown(render_transcript(read_trajectory(*messages), false));
  }
  values["history"] = std::move(history);

  std::string context = "(none)";
  for (Section section : {Section::actual_outputs, Section::metadata}) {
    const boost::json::value* given = test_case.find(section, context_key_);
    if (given == nullptr || given->is_null()) continue;
    context = render_listed(*given);
    break;
  }
  values["context"] = std::move(context);
  return values;
}

PromptTemplate::Values RubricGrader::tool_values(const TestCase& test_case, const Trajectory& trajectory) const {
  PromptTemplate::Values values;
  values["tool_definitions"] =
      render_value(required_member(test_case, Section::metadata, tools_key_, descriptor_->name));
  values["tool_calls"] = render_calls(trajectory, descriptor_->shows_responses);
  if (descriptor_->shows_request) {
    const std::vector<std::string> requests = trajectory.user_requests();
    if (!requests.empty()) {
      values["query"] = render_requests(requests);
    } else {
      const boost::json::value* input = test_case.find(Section::inputs, input_key_);
      if (input == nullptr || input->is_null())
        throw invalid_argument(descriptor_->name +
                               " requires the user's request: the messages have no user message and '" +
                               member_label(Section::inputs, input_key_) + "' is absent");
      values["query"] = render_value(*input);
    }
  }
  return values;
}

std::string RubricGrader::prompt(const TestCase& test_case) const {
  if (!descriptor_->is_tool_grader()) return settings_.prompt.render(step_values(test_case));
  const boost::json::array* messages = messages_.find(test_case);
  if (messages == nullptr) throw invalid_argument(descriptor_->name + ": " + messages_.describe_missing());
  return settings_.prompt.render(tool_values(test_case, read_trajectory(*messages)));
}

EvalResult RubricGrader::scored(double native, std::string reason) const {
  const RubricDescriptor& d = *descriptor_;
  const double score = std::clamp((native - d.scale_min) / (d.scale_max - d.scale_min), 0.0, 1.0);
  EvalResult result = EvalResult::scored(settings_.common.name, score, settings_.common.threshold, std::move(reason));
  result.metadata["nativeScore"] = native;
  result.metadata["scale"] = boost::json::array{d.scale_min, d.scale_max};
  return result;
}

EvalResult RubricGrader::evaluate(const TestCase& test_case, CallContext& ctx) const {
  const RubricDescriptor& d = *descriptor_;
  std::string text;
  std::size_t call_count = 0;
  if (d.is_tool_grader()) {
    const boost::json::array* messages = messages_.find(test_case);
    if (messages == nullptr) {
      EvalResult result = scored(d.scale_min, messages_.describe_missing());
      result.metadata["evaluable"] = false;
      return result;
    }
    const Trajectory trajectory = read_trajectory(*messages);
    call_count = trajectory.calls.size();
    if (call_count == 0) {
      const bool lowest = d.without_calls == WithoutCalls::lowest;
      EvalResult result = scored(lowest ? d.scale_min : d.scale_max,
                                 lowest ? "the agent made no tool calls" : "no tool calls to check");
      result.metadata["toolCallCount"] = 0;
      return result;
    }
    text = settings_.prompt.render(tool_values(test_case, trajectory));
  } else {
    text = settings_.prompt.render(step_values(test_case));
  }

  return run_votes(settings_.voting, settings_.common, Better::higher, ctx, [&](const JudgeCall& call) {
    const boost::json::object reply = ask_judge(call, settings_, d.name, text);
    const std::optional<double> native = reply_number(reply, "score");
    if (!native) throw_unusable_reply(d.name, "has no number 'score'", reply);
    std::string reason = reply_string(reply, "reason");
    if (blank(reason)) reason = "No reason provided.";
    EvalResult result = scored(*native, std::move(reason));
    if (d.is_tool_grader()) result.metadata["toolCallCount"] = call_count;
    return result;
  });
}

}  // namespace krino::judge::openjudge
