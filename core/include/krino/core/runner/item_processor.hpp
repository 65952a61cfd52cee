#pragma once
// Turns one dataset record into one finished item: decode, task, evaluators, and the serialized
// item_finished event. Pure with respect to the run: safe to call from many threads at once.
#include "krino/core/host/host_services.hpp"
#include "krino/core/usage/judge_usage.hpp"
#include "krino/core/runner/dataset_stream.hpp"
#include "krino/core/runner/evaluator_handle.hpp"
#include "krino/core/shard/shard_spec.hpp"
#include "krino/core/statistics/run_statistics.hpp"
#include "krino/core/task/task.hpp"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace krino::core {

struct FinishedItem {
  bool skipped = false;             // not in this run's shard: no task, no evaluation, no event
  std::string event;                // the item_finished event, serialized
  bool success = false;
  bool error = false;
  std::vector<ScoreRecord> scores;  // what the run statistics need of the results
  JudgeUsage judge;                 // judge calls the item made (empty without judges)
  std::vector<std::pair<std::string, JudgeUsage>> judge_by_evaluator;
};

class ItemProcessor {
 public:
  ItemProcessor(const HostServices& host, const DatasetStream& dataset, const Task& task,
                const std::vector<std::unique_ptr<EvaluatorHandle>>& evaluators, uint64_t seed,
                std::optional<ShardSpec> shard = std::nullopt);

  FinishedItem process(uint32_t run_index, uint64_t index, const DatasetRecord& record) const;

 private:
  const HostServices& host_;
  const DatasetStream& dataset_;
  const Task& task_;
  const std::vector<std::unique_ptr<EvaluatorHandle>>& evaluators_;
  uint64_t seed_;
  std::optional<ShardSpec> shard_;
};

// A well-mixed per-item seed from the experiment seed, run and item (splitmix64).
uint64_t item_seed(uint64_t experiment_seed, uint32_t run_index, uint64_t item_index);

}  // namespace krino::core
