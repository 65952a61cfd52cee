// The OpenJudge LLM rubric graders: twelve evaluators that differ only in what
// they show the judge, their rubric (the prompt file) and the judge's native scale, so they are one
// class driven by a table of descriptors (openjudge_rubric_grader.cpp) rather than twelve copies.
// See docs/plugins/judge-openjudge.md.
//
// Two families:
//  - step graders (action, memory, plan, reflection) judge one agent step given as named fields of
//    actualOutputs (plan, action, observation, memory, reflection; each key is an option), with an
//    optional history (actualOutputs.history, else the message list as a transcript) and context
//    (actualOutputs, then metadata);
//  - tool graders read the OpenJudge message list (openjudge_trajectory.h) and show the user's
//    request, the tool definitions (metadata.tools) and the calls, with their responses when the
//    rubric needs them.
// The judge answers {"score", "reason"} on the native scale; the result's score is
// (native − min) / (max − min), clamped to 0..1, and metadata keeps nativeScore and
// scale [min, max]. A reply without a number `score` is an item error (KRINO_INTERNAL).
// `votes` / `vote_aggregation` (voting.h) repeat the judge call with N seeds; higher is better.
#ifndef KRINO_JUDGE_OPENJUDGE_RUBRIC_GRADER_H
#define KRINO_JUDGE_OPENJUDGE_RUBRIC_GRADER_H

#include "judge_call.h"
#include "openjudge_trajectory.h"

#include <krino/plugin.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace krino::judge::openjudge {

enum class RubricKind {
  action_alignment,
  tool_selection_quality,
  tool_call_accuracy,
  tool_call_success,
  tool_parameter_check,
  memory_accuracy,
  memory_detail_preservation,
  memory_retrieval_effectiveness,
  plan_feasibility,
  reflection_accuracy,
  reflection_outcome_understanding,
  reflection_progress_awareness,
};

// What a tool grader does when the agent made no tool calls: no judge call, the native score at one
// end of the scale.
enum class WithoutCalls {
  lowest,   // the rubric scores "no tool" at the bottom (selection, accuracy)
  highest,  // the rubric judges the calls made; none made, none wrong (success, parameters)
};

struct RubricDescriptor {
  RubricKind kind;
  std::string name;             // short name
  std::string id;               // "krino." + name
  std::string openjudge_class;  // the OpenJudge grader it ports
  std::string description;
  double scale_min;
  double scale_max;
  double default_threshold;  // on 0..1
  // Step graders: the required fields, in prompt order; empty for tool graders.
  std::vector<std::string> step_fields;
  // Tool graders.
  bool shows_request = false;
  bool shows_responses = false;
  WithoutCalls without_calls = WithoutCalls::lowest;

  bool is_tool_grader() const { return step_fields.empty(); }
  std::string prompt_name() const { return "openjudge_" + name; }
};

const RubricDescriptor& rubric_descriptor(RubricKind kind);
const std::vector<RubricKind>& all_rubric_kinds();
// The JSON Schema of the grader's options (made once, kept for the life of the process).
const char* rubric_config_schema(RubricKind kind);

class RubricGrader {
 public:
  RubricGrader(const RubricDescriptor& descriptor, Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

  // The prompt for a test case (which must have what the grader needs).
  std::string prompt(const TestCase& test_case) const;

 private:
  PromptTemplate::Values step_values(const TestCase& test_case) const;
  PromptTemplate::Values tool_values(const TestCase& test_case, const Trajectory& trajectory) const;
  EvalResult scored(double native, std::string reason) const;

  const RubricDescriptor* descriptor_;
  JudgeSettings settings_;
  MessagesLocation messages_;
  std::vector<std::string> field_keys_;  // parallel to descriptor_->step_fields
  std::string history_key_;
  std::string context_key_;
  std::string tools_key_;
  std::string input_key_;
};

// One registrable type per grader (KRINO_EVALUATOR registers a type).
template <RubricKind Kind>
class RubricGraderOf : public RubricGrader {
 public:
  explicit RubricGraderOf(Config config) : RubricGrader(rubric_descriptor(Kind), std::move(config)) {}
};

}  // namespace krino::judge::openjudge

#endif  // KRINO_JUDGE_OPENJUDGE_RUBRIC_GRADER_H
