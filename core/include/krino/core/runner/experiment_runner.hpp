#pragma once
// Runs an experiment: for each run, streams the dataset through the task and the evaluators on a
// TBB pipeline and hands every finished item to the reporters (and the observer) in dataset order.
// `krino eval` is the same runner given test cases directly: no dataset and no task, its output an
// observer (ResultLineWriter).
//
// Memory is bounded by the pipeline window (items in flight), never by the dataset: nothing keeps
// item results once the reporters and the run statistics have seen them.
#include "krino/core/common/io_service.hpp"
#include "krino/core/experiment/experiment_config.hpp"
#include "krino/core/usage/price_table.hpp"
#include "krino/core/common/cancellation.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/runner/evaluator_handle.hpp"
#include "krino/core/runner/output_paths.hpp"
#include "krino/core/runner/reporter_handle.hpp"
#include "krino/core/runner/resume_source.hpp"
#include "krino/core/task/task.hpp"

#include <boost/json/object.hpp>
#include <krino/event/item_finished.hpp>
#include <krino/event/run_started.hpp>

#include <functional>
#include <istream>
#include <optional>
#include <memory>
#include <string>
#include <vector>

namespace krino::core {

struct ExperimentOutcome {
  bool cancelled = false;
  double pass_rate = 0.0;
  uint64_t total_count = 0;
  double error_count = 0.0;
  bool passed = false;  // pass_rate >= min_pass_rate, not cancelled, and at least one item
  boost::json::object summary;
};

// What the command hands the runner beyond the experiment.
struct RunnerEnvironment {
  // The command's I/O service, on which the task's calls run; the command gives the judge service
  // the same one, so a command runs one event loop. Must outlive the runner.
  IoService& io;
  // Test cases given directly (`krino eval`): one krino.testcase/1 object a line, scored as they are,
  // instead of the experiment's dataset and task (which are then not used; `runs` must be 1, the
  // lines are read once). Null: the experiment's dataset through its task.
  std::istream* test_cases = nullptr;
  // Files the user named as input to the command (the experiment file, ...): no report may be
  // written over one of them. The dataset's own file is added by the runner.
  std::vector<NamedFile> inputs = {};
  // With test cases given directly: told true when the reader has read every line that has arrived
  // and is about to wait for more, false when a line comes again ([serial], on the reading thread).
  // `krino eval` flushes its output then, so a program that writes a test case and waits for its
  // result gets it.
  std::function<void(bool)> test_cases_idle = {};
};

class ExperimentRunner {
 public:
  // Resolves and validates every component and creates instances; throws a configuration error
  // before anything runs when something is wrong.
  ExperimentRunner(const ExperimentConfig& config, const PluginRegistry& registry, const HostServices& host,
                   const Cancellation& cancellation, RunnerEnvironment environment);
  ~ExperimentRunner();

  ExperimentOutcome run();

  // Sees each run's start and every finished item as the runner holds them, in the order the
  // reporters see their lines, on the same (serial) stage: how the regression gate collects its
  // projection during the run without a reporter of its own and without reading lines back.
  class Observer {
   public:
    virtual ~Observer() = default;
    virtual void on_run_started(const krino::event::RunStarted& started) = 0;
    virtual void on_item(const krino::event::ItemFinished& item) = 0;
  };
  void set_observer(Observer* observer) { observer_ = observer; }

  // Items admitted into the pipeline at once.
  size_t window() const { return window_; }

 private:
  struct RunResult;
  RunResult run_once(uint32_t run_index, class ExperimentStatistics& statistics);
  void emit(const std::string& line);
  void redirect_resumed_report(const PluginRegistry& registry, std::vector<ComponentUse>& reporters);
  void replace_resumed_report();
  void flush_reporters();
  std::optional<krino::event::ShardInfo> shard_info() const;
  krino::event::RunStarted run_started_event(uint32_t run_index, const krino::event::DatasetInfo& info) const;

  const ExperimentConfig& config_;
  const PluginRegistry& registry_;
  const HostServices& host_;
  const Cancellation& cancellation_;
  RunnerEnvironment environment_;
  const Component* resolver_ = nullptr;  // null with test cases given directly
  // Declared before the task, which uses them and so must go first.
  PriceTable prices_;
  std::unique_ptr<Task> task_;  // null with test cases given directly
  std::vector<std::unique_ptr<EvaluatorHandle>> evaluators_;
  std::vector<std::unique_ptr<ReporterHandle>> reporters_;
  size_t window_ = 1;
  // The pipeline's tokens: groups of group_size_ items each (see the constructor).
  size_t tokens_ = 1;
  size_t group_size_ = 1;
  static constexpr size_t kBatchedGroupSize = 16;  // and the most a group ever holds
  Observer* observer_ = nullptr;
  std::optional<krino::event::RunFingerprint> fingerprint_;  // none with test cases given directly
  std::optional<ResumeSource> resume_;
  std::string resumed_report_;  // the json reporter's path when it is the report being resumed
};

}  // namespace krino::core
