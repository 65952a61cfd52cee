#pragma once
// What the run statistics need of one item_finished line of a krino.event/1 file, read back
// exactly as the runner had it in memory, so that `krino merge` can recompute a run's summary
// with the very code the runner uses (RunStatistics) and get the same numbers.
#include "krino/core/usage/judge_usage.hpp"
#include "krino/core/statistics/run_statistics.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace krino::core {

struct ItemLine {
  uint32_t run_index = 0;
  uint64_t index = 0;
  bool success = false;
  bool error = false;
  std::vector<ScoreRecord> scores;
  JudgeUsage judge;
  std::vector<std::pair<std::string, JudgeUsage>> judge_by_evaluator;
};

// Reads an item_finished line (already known to be a JSON object). Scores are parsed by the same
// parser the runner used on the evaluator's bytes; judge costs come from `costUsdExact` when the
// line has it. Throws a runtime error naming the member that is missing or of the wrong type.
ItemLine read_item_line(std::string_view line);

}  // namespace krino::core
