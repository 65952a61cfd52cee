#pragma once
// Writes the runs of an experiment into the results store while the runner produces them, so
// `krino serve` shows what an agent ran through `krino mcp`. The rows are those the server
// reporter's HTTP calls create: one stored run per run of the experiment, each item the server's
// ItemData (written by krino/event/item_data.hpp, read by the server's own ingestion), the same
// totals. It writes through the Store directly: no server needs to be running (docs/decisions.md).
#include "krino/core/runner/experiment_runner.hpp"
#include "krino/core/store/store.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace krino::core::mcp {

class StoredRunRecorder final : public ExperimentRunner::Observer {
 public:
  // Called after each item with the items recorded in the current run and, when the dataset's
  // resolver knows it, how many there will be.
  using ItemCounter = std::function<void(std::uint64_t done, std::optional<std::uint64_t> total)>;

  // Runs go to `project` (created when absent), experiment `experiment` (empty: the experiment's
  // name), stamped with `scope`'s tenant (ToolContext::scope).
  StoredRunRecorder(store::Store& store, store::Scope scope, std::string project, std::string experiment,
                    ItemCounter on_item = {});
  // A run still open (the runner failed) is ended as FAILED.
  ~StoredRunRecorder() override;
  StoredRunRecorder(const StoredRunRecorder&) = delete;
  StoredRunRecorder& operator=(const StoredRunRecorder&) = delete;

  void on_run_started(const krino::event::RunStarted& started) override;
  void on_item(const krino::event::ItemFinished& item) override;

  // Ends the open run: CANCELLED when the experiment was, SUCCESS otherwise.
  void finish(bool cancelled);

  // Every run created, in order.
  const std::vector<std::string>& run_ids() const noexcept { return run_ids_; }

 private:
  void flush();
  void end_run(store::RunStatus status);

  store::Store& store_;
  const store::Scope scope_;
  std::string project_;
  std::string experiment_;
  ItemCounter on_item_;
  bool run_open_ = false;
  std::uint64_t items_in_run_ = 0;
  std::optional<std::uint64_t> expected_items_;
  std::string batch_;  // {"items":[ItemData,...  being filled
  std::size_t batched_ = 0;
  std::vector<std::string> run_ids_;
};

}  // namespace krino::core::mcp
