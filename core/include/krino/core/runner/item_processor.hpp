#pragma once
// Turns one record into one finished item: decode, task, evaluators, and the serialized
// item_finished event; or, for a test case given directly (`krino eval`), its evaluators. Pure with
// respect to the run: safe to call from many threads at once.
#include "krino/core/host/host_services.hpp"
#include "krino/core/runner/dataset_stream.hpp"
#include "krino/core/runner/eval_result_check.hpp"
#include "krino/core/runner/evaluator_handle.hpp"
#include "krino/core/shard/shard_spec.hpp"
#include "krino/core/task/task.hpp"
#include "krino/core/usage/judge_usage.hpp"

#include <atomic>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace krino::core {

// One record after the task and the evaluators: the item_finished event as its model and
// as its line. The model's views point into this object's own buffers, so it is filled in place
// and never copied or moved.
struct FinishedItem {
  FinishedItem() = default;
  FinishedItem(const FinishedItem&) = delete;
  FinishedItem& operator=(const FinishedItem&) = delete;

  bool skipped = false;          // not in this run's shard: no task, no evaluation, no event
  krino::event::ItemFinished event;
  std::string line;              // the event, serialized (krino/event/item_finished.hpp)

 private:
  friend class ItemProcessor;
  // What the event's views point into.
  std::string example_text_;
  std::string actual_outputs_;
  std::vector<CheckedResult> results_;
};

// One record of a group given to ItemProcessor::process: its index, and the fresh item it fills.
struct ItemToProcess {
  uint64_t index = 0;
  const DatasetRecord* record = nullptr;
  FinishedItem* item = nullptr;
};

class ItemProcessor {
 public:
  // Records are examples: decoded by `dataset`, run through `task`, then scored.
  ItemProcessor(const HostServices& host, const DatasetStream& dataset, const Task& task,
                const std::vector<std::unique_ptr<EvaluatorHandle>>& evaluators, uint64_t seed,
                std::optional<ShardSpec> shard = std::nullopt);
  // Records are test cases given directly (krino.testcase/1, `krino eval`): no dataset, no task;
  // each is scored as it is, its missing or null sections empty.
  ItemProcessor(const HostServices& host, const std::vector<std::unique_ptr<EvaluatorHandle>>& evaluators,
                uint64_t seed);

  // Whether process() serializes the event into FinishedItem::line (by default it does). Only
  // reporters read the line; a run without any need not pay for it.
  void set_writes_line(bool writes) { writes_line_ = writes; }

  // Fills `item`, a fresh FinishedItem.
  void process(uint32_t run_index, uint64_t index, const DatasetRecord& record, FinishedItem& item) const;
  // Fills the items of a group of records: each is read and run through the task in turn, then
  // each evaluator scores the group's items that have no error yet, together when it batches()
  // (EvaluatorHandle::evaluate_batch). Every item gets what process() alone would give it; its
  // duration_ms includes the time its evaluators spent on the group.
  void process(uint32_t run_index, std::span<const ItemToProcess> group) const;
  // Fills `item` from `reported_line`, the item's line in the report of an interrupted run
  // (`krino run --resume`), instead of running it again; the record is read only to check that it is
  // the example the report holds. Throws a configuration error when it is not (the dataset changed).
  void replay(uint64_t index, const DatasetRecord& record, std::string reported_line, FinishedItem& item) const;

 private:
  struct ItemInProgress;
  // Steps 1 and 2 of an item (example, task, the test case evaluators get); false when another
  // shard owns it. Then step 4: its event.
  bool begin(uint32_t run_index, ItemInProgress& item) const;
  void finish(uint32_t run_index, ItemInProgress& item) const;
  // Steps 1 to 4 for items already placed.
  void score(uint32_t run_index, std::span<ItemInProgress> items) const;
  // One evaluator's outcome for an item: its result, or the error that ends the item.
  // Its share of the item's judge usage is what the item's attribution counted since the call began.
  void record(const EvaluatorHandle& evaluator, ItemInProgress& item, StatusOr<CheckedResult, ItemError> evaluated) const;
  // Step 1 of an item: the record as an example (its text kept in `item`), or why it cannot be one.
  std::optional<ItemError> read_example(const DatasetRecord& record, FinishedItem& item, ExampleView& example) const;
  // Whether this run's shard (if any) owns the example at `index`.
  bool owns(const ExampleView& example, bool unreadable, uint64_t index) const;

  const HostServices& host_;
  const DatasetStream* dataset_ = nullptr;  // null: records are test cases
  const Task* task_ = nullptr;              // null: records are test cases
  const std::vector<std::unique_ptr<EvaluatorHandle>>& evaluators_;
  uint64_t seed_;
  std::optional<ShardSpec> shard_;
  bool writes_line_ = true;
};

// A well-mixed per-item seed from the experiment seed, run and item (splitmix64).
uint64_t item_seed(uint64_t experiment_seed, uint32_t run_index, uint64_t item_index);

}  // namespace krino::core
