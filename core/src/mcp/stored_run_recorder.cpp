#include "krino/core/mcp/stored_run_recorder.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/server_api/item_batch.hpp"

#include <krino/event/item_data.hpp>
#include <krino/json_text.hpp>

#include <cstdio>
#include <variant>

namespace krino::core::mcp {

namespace {

// Items written in one transaction: few enough to bound memory, many enough to keep commits rare.
constexpr std::size_t kRecorderBatch = 200;

}  // namespace

StoredRunRecorder::StoredRunRecorder(store::Store& store, store::Scope scope, std::string project, std::string experiment,
                                     ItemCounter on_item)
    : store_(store), scope_(std::move(scope)), project_(std::move(project)), experiment_(std::move(experiment)), on_item_(std::move(on_item)) {}

StoredRunRecorder::~StoredRunRecorder() {
  if (!run_open_) return;
  try {
    end_run(store::RunStatus::failed);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "krino mcp: cannot close run %s as FAILED: %s\n", run_ids_.back().c_str(), e.what());
  }
}

void StoredRunRecorder::on_run_started(const krino::event::RunStarted& started) {
  if (run_open_) end_run(store::RunStatus::success);  // the previous run of a `runs: N` experiment
  store::NewRun run;
  run.project = project_;
  run.experiment = !experiment_.empty() ? experiment_ : !started.experiment_name.empty() ? started.experiment_name : "krino";
  // The experiment's metadata, as the server reporter sends it, and the dataset's name for
  // list_experiments' filter when the metadata does not already say "dataset".
  boost::json::object metadata = started.experiment_metadata;
  if (!metadata.contains("dataset") && !started.dataset.name.empty()) metadata["dataset"] = started.dataset.name;
  run.metadata = krino::json::to_compact_json(metadata);
  run_ids_.push_back(store_.create_run(scope_, run).run_id);
  run_open_ = true;
  items_in_run_ = 0;
  expected_items_ = started.dataset.size_hint;
}

void StoredRunRecorder::on_item(const krino::event::ItemFinished& item) {
  if (!run_open_) return;
  batch_.append(batched_ == 0 ? "{\"items\":[" : ",");
  krino::event::append_item_data(batch_, item);
  ++batched_;
  ++items_in_run_;
  if (batched_ >= kRecorderBatch) flush();
  if (on_item_) on_item_(items_in_run_, expected_items_);
}

void StoredRunRecorder::flush() {
  if (batched_ == 0) return;
  batch_.append("]}");
  // The server's own reader: the stored items are exactly those a POST of the batch would store.
  auto items = server_api::read_item_batch(batch_);
  batch_.clear();
  batched_ = 0;
  if (const auto* problem = std::get_if<server_api::BatchProblem>(&items)) {
    std::string message = "the run's items cannot be stored: ";
    message.append(problem->field).append(" ").append(problem->message);
    throw runtime_error(message);
  }
  store_.add_items(scope_, run_ids_.back(), std::nullopt, std::get<std::vector<store::NewItem>>(items));
}

void StoredRunRecorder::end_run(store::RunStatus status) {
  run_open_ = false;
  if (status != store::RunStatus::failed) flush();
  batch_.clear();
  batched_ = 0;
  store_.set_run_status(scope_, run_ids_.back(), status);
}

void StoredRunRecorder::finish(bool cancelled) {
  if (run_open_) end_run(cancelled ? store::RunStatus::cancelled : store::RunStatus::success);
}

}  // namespace krino::core::mcp
