// The OpenJudge LLM graders of the krino.judge plugin: twelve rubric graders, one class
// driven by descriptors (src/openjudge_rubric_grader.*), and trajectory_comprehensive. Logic in
// krino_judge_logic; the plugin entry point is in judge_plugin.cpp.
// See docs/plugins/judge-openjudge.md.
#include "openjudge_rubric_grader.h"
#include "openjudge_trajectory_comprehensive.h"

#include <krino/plugin.hpp>

namespace {

using krino::judge::openjudge::RubricKind;

// Judges are not deterministic, so no KRINO_CAP_DETERMINISTIC; evaluate() only reads members.
constexpr uint64_t kOpenJudgeCapabilities = KRINO_CAP_THREAD_SAFE | KRINO_CAP_NEEDS_JUDGE;

}  // namespace

// Id, name, description and option schema come from the grader's descriptor (a function-local static
// table, so the strings outlive registration).
#define KRINO_OPENJUDGE_RUBRIC(kind)                                                                          \
  KRINO_EVALUATOR(krino::judge::openjudge::RubricGraderOf<kind>,                                              \
                  krino::judge::openjudge::rubric_descriptor(kind).id.c_str(),                                \
                  krino::judge::openjudge::rubric_descriptor(kind).name.c_str(), "1.0.0",                     \
                  krino::judge::openjudge::rubric_descriptor(kind).description.c_str(), kOpenJudgeCapabilities, \
                  krino::judge::openjudge::rubric_config_schema(kind))

KRINO_OPENJUDGE_RUBRIC(RubricKind::action_alignment);
KRINO_OPENJUDGE_RUBRIC(RubricKind::tool_selection_quality);
KRINO_OPENJUDGE_RUBRIC(RubricKind::tool_call_accuracy);
KRINO_OPENJUDGE_RUBRIC(RubricKind::tool_call_success);
KRINO_OPENJUDGE_RUBRIC(RubricKind::tool_parameter_check);
KRINO_OPENJUDGE_RUBRIC(RubricKind::memory_accuracy);
KRINO_OPENJUDGE_RUBRIC(RubricKind::memory_detail_preservation);
KRINO_OPENJUDGE_RUBRIC(RubricKind::memory_retrieval_effectiveness);
KRINO_OPENJUDGE_RUBRIC(RubricKind::plan_feasibility);
KRINO_OPENJUDGE_RUBRIC(RubricKind::reflection_accuracy);
KRINO_OPENJUDGE_RUBRIC(RubricKind::reflection_outcome_understanding);
KRINO_OPENJUDGE_RUBRIC(RubricKind::reflection_progress_awareness);

KRINO_EVALUATOR(krino::judge::openjudge::TrajectoryComprehensiveGrader, "krino.trajectory_comprehensive",
                "trajectory_comprehensive", "1.0.0",
                "An LLM judge scores every tool-call step 1-5 on contribution, relevance, accuracy and efficiency; "
                "the mean mapped to 0..1",
                kOpenJudgeCapabilities, krino::judge::openjudge::TrajectoryComprehensiveGrader::kConfigSchema);
