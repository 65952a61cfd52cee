// Registers the deterministic OpenJudge agent graders; their logic lives in src/openjudge_*.
#include "openjudge_action_loop_detection.h"
#include "openjudge_observation_information_gain.h"
#include "openjudge_tool_call_sequence_match.h"

#include <krino/plugin.hpp>

KRINO_EVALUATOR(krino::agent::openjudge::ActionLoopDetectionEvaluator, "krino.action_loop_detection", "action_loop_detection",
                "1.0.0", "OpenJudge loop detection: share of answered tool calls that repeat one another",
                KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC,
                krino::agent::openjudge::ActionLoopDetectionEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::agent::openjudge::ToolCallSequenceMatchEvaluator, "krino.tool_call_sequence_match",
                "tool_call_sequence_match", "1.0.0",
                "OpenJudge sequence match: the conversation's tool calls against a reference, by Jaccard or step",
                KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC,
                krino::agent::openjudge::ToolCallSequenceMatchEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::agent::openjudge::ObservationInformationGainEvaluator, "krino.observation_information_gain",
                "observation_information_gain", "1.0.0",
                "OpenJudge information gain: how much new each tool result tells, penalising repeats",
                KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC,
                krino::agent::openjudge::ObservationInformationGainEvaluator::kConfigSchema);
