#include "krino/core/runner/experiment_runner.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/thread_sanitizer.hpp"
#include "krino/core/common/utc_time.hpp"
#include "krino/core/runner/component_factory.hpp"
#include "krino/core/runner/dataset_stream.hpp"
#include "krino/core/runner/item_processor.hpp"
#include "krino/core/runner/run_fingerprint.hpp"
#include "krino/core/runner/test_case_lines.hpp"
#include "krino/core/statistics/experiment_statistics.hpp"
#include "krino/core/statistics/run_statistics.hpp"
#include "krino/core/task/task_factory.hpp"

#include <boost/json.hpp>
#include <krino/event/run_finished.hpp>
#include <krino/event/run_started.hpp>
#include <tbb/info.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <set>
#include <span>

namespace krino::core {
namespace json = boost::json;

namespace {

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return std::round(ms * 1000.0) / 1000.0;
}

}  // namespace

struct ExperimentRunner::RunResult {
  bool cancelled = false;
};

ExperimentRunner::ExperimentRunner(const ExperimentConfig& config, const PluginRegistry& registry,
                                   const HostServices& host, const Cancellation& cancellation,
                                   RunnerEnvironment environment)
    : config_(config), registry_(registry), host_(host), cancellation_(cancellation), environment_(environment) {
  if (environment_.test_cases != nullptr) {
    if (config.runs != 1) throw config_error("runs: test cases given directly are read once, so runs must be 1");
  } else {
    resolver_ = &choose_resolver(registry, config.dataset.uri, config.dataset.resolver);
    validate_options(*resolver_, config.dataset.options, "dataset resolver");
    prices_ = PriceTable::from_json(config.prices, "prices");
    task_ = make_task(config.task, TaskEnvironment{host, registry, environment_.io, prices_, config.parallelism});
    fingerprint_ = run_fingerprint(config);
  }
  const bool calls_out = task_ != nullptr && task_->calls_out();

  const size_t workers = static_cast<size_t>(tbb::this_task_arena::max_concurrency());
  std::set<std::string> names;
  EvaluatorEnvironment evaluator_environment;
  evaluator_environment.host = host.host();
  evaluator_environment.threads = workers;
  evaluator_environment.io = &environment_.io.context();
  evaluator_environment.parallelism = config.parallelism;
  evaluator_environment.base_dir = config.task.base_dir;
  evaluator_environment.isolation =
      config.isolation == "process" ? EvaluatorIsolation::process : EvaluatorIsolation::none;
  evaluator_environment.cancelled = [&cancellation] { return cancellation.requested(); };
  evaluator_environment.cancellation = &cancellation;
  for (const auto& use : config.evaluators) {
    auto handle = make_evaluator(registry, use, evaluator_environment);
    if (!names.insert(handle->name()).second) {
      throw config_error("two evaluators are named '" + handle->name() +
                         "'; results are aggregated by name, so give one of them a different `name`");
    }
    evaluators_.push_back(std::move(handle));
  }
  std::vector<ComponentUse> reporters = config.reporters;
  if (!config.resume.from.empty()) {
    if (environment_.test_cases != nullptr) throw config_error("resume: test cases given directly cannot be resumed");
    resume_.emplace(config.resume.from, *fingerprint_, shard_info(), config.resume.retry_errors);
    redirect_resumed_report(registry, reporters);
  }
  // Checked before the first reporter opens its file: opening one may empty it.
  std::vector<NamedFile> inputs = environment_.inputs;
  if (environment_.test_cases == nullptr) inputs.push_back({"the dataset", local_dataset_path(config.dataset.uri)});
  if (resume_) inputs.push_back({"the report being resumed", resume_->path()});
  refuse_clashing_paths(inputs, reporter_outputs(registry, reporters));
  for (const auto& use : reporters) reporters_.push_back(make_reporter(registry, use, host.host()));

  // A task that calls a system under test admits `parallelism` items at once. In-process work
  // (replay, and evaluation) is not held back by that limit: it gets enough items in flight to keep
  // every worker busy while the output stage restores dataset order.
  window_ = calls_out ? config.parallelism : std::max<size_t>(config.parallelism, 4 * workers);
  // An item waiting for a judge holds no thread (its task is suspended), so with judge evaluators
  // enough items are admitted to keep every judge's concurrency busy: an item makes one judge call
  // at a time.
  const bool judged = std::any_of(evaluators_.begin(), evaluators_.end(),
                                  [](const auto& e) { return e->component().has(KRINO_CAP_NEEDS_JUDGE); });
  if (judged && !calls_out) window_ = std::max(window_, host.judge_capacity());
  tokens_ = window_;
  // An evaluator whose calls wait on another process (isolation: process, use: subprocess, use:
  // http_evaluator) costs a suspension of the item's task and wake-ups on both sides per call; handed the
  // items in groups, it costs them once per group. Only where an item's own concurrency does not
  // matter: a task that calls out, or a judge, waits per item, and in a group the items would wait
  // in turn. Enough groups stay in flight to keep every thread and worker busy.
  const bool batching = std::any_of(evaluators_.begin(), evaluators_.end(), [](const auto& e) { return e->batches(); });
  if (batching && !calls_out && !judged) {
    group_size_ = kBatchedGroupSize;
    tokens_ = std::max<size_t>(4 * workers, (window_ + group_size_ - 1) / group_size_);
    window_ = tokens_ * group_size_;
  }
}

ExperimentRunner::~ExperimentRunner() = default;

void ExperimentRunner::redirect_resumed_report(const PluginRegistry& registry, std::vector<ComponentUse>& reporters) {
  // The json reporter asked to write the very report being resumed would empty it before it is read.
  // It writes beside it instead, and the new report takes the old one's place once the run has
  // ended: until then the old report is whole, whatever happens to this run.
  for (auto& use : reporters) {
    const auto outputs = reporter_outputs(registry, {use});
    if (outputs.empty()) continue;
    try {
      refuse_clashing_paths({{"the report being resumed", resume_->path()}}, outputs);
      continue;
    } catch (const KrinoError&) {
      const Component& component = registry.find(ComponentKind::reporter, use.component);
      const auto* append = use.options.if_contains("append");
      if (component.id != "krino.json" || (append != nullptr && append->is_bool() && append->get_bool())) throw;
    }
    if (!resumed_report_.empty())
      throw config_error("two json reporters write the report being resumed, '" + resume_->path() + "'");
    resumed_report_ = outputs.front().path;
    use.options["path"] = resumed_report_ + ".resuming";
  }
}

void ExperimentRunner::replace_resumed_report() {
  if (resumed_report_.empty()) return;
  const std::string written = resumed_report_ + ".resuming";
  if (::rename(written.c_str(), resumed_report_.c_str()) != 0) {
    const int error = errno;
    throw runtime_error("cannot put the resumed report '" + written + "' in the place of '" + resumed_report_ +
                        "': " + std::strerror(error) + "; both files are kept");
  }
}

void ExperimentRunner::emit(const std::string& line) {
  for (auto& reporter : reporters_) reporter->on_event(line);
}

std::optional<krino::event::ShardInfo> ExperimentRunner::shard_info() const {
  // Only a sharded run says so; `krino merge` reads it (docs/sharding.md).
  if (!config_.shard) return std::nullopt;
  return krino::event::ShardInfo{config_.shard->index, config_.shard->count};
}

void ExperimentRunner::flush_reporters() {
  // Every reporter flushes even when one fails (the server reporter fails its flush when items did
  // not reach the server): the others' files are still synced. The first failure is what is reported.
  std::exception_ptr first_failure;
  for (auto& reporter : reporters_) {
    try {
      reporter->flush();
    } catch (...) {
      if (!first_failure) first_failure = std::current_exception();
    }
  }
  if (first_failure) std::rethrow_exception(first_failure);
}

krino::event::RunStarted ExperimentRunner::run_started_event(uint32_t run_index, const DatasetInfo& info) const {
  krino::event::RunStarted e;
  e.run_index = run_index;
  e.runs = config_.runs;
  e.experiment_name = config_.name;
  e.experiment_description = config_.description;
  e.experiment_metadata = config_.metadata;
  e.dataset = info;
  e.dataset.uri = config_.dataset.uri;
  for (const auto& ev : evaluators_) e.evaluators.push_back({ev->name(), ev->component().id, ev->threshold()});
  e.parallelism = config_.parallelism;
  e.timestamp = utc_timestamp_now();
  e.shard = shard_info();
  e.fingerprint = fingerprint_;
  return e;
}

ExperimentRunner::RunResult ExperimentRunner::run_once(uint32_t run_index, ExperimentStatistics& statistics) {
  const auto started = std::chrono::steady_clock::now();
  // The records: the dataset's, or the test cases given directly.
  std::optional<DatasetStream> dataset;
  std::optional<TestCaseLines> test_cases;
  if (environment_.test_cases != nullptr) test_cases.emplace(*environment_.test_cases, environment_.test_cases_idle);
  else dataset.emplace(*resolver_, host_.host(), config_.dataset.uri, config_.dataset.options);
  {
    const krino::event::RunStarted event = run_started_event(run_index, dataset ? dataset->info() : DatasetInfo{});
    std::string line;
    krino::event::append_run_started(line, event);
    emit(line);
    if (observer_) observer_->on_run_started(event);
  }

  std::vector<std::string> names;
  for (const auto& ev : evaluators_) names.push_back(ev->name());
  RunStatistics run_stats(names);
  ItemProcessor processor = dataset ? ItemProcessor(host_, *dataset, *task_, evaluators_, config_.seed, config_.shard)
                                    : ItemProcessor(host_, evaluators_, config_.seed);
  processor.set_writes_line(!reporters_.empty());
  if (resume_) resume_->start_run(run_index);

  struct Slot {
    uint64_t index = 0;
    DatasetRecord record;
    std::optional<std::string> reported;  // resuming: the item's line in the report, when kept
    FinishedItem item;  // filled in place: its event's views point into it
  };
  // A pipeline token: up to group_size_ items in dataset order (one, unless the evaluators batch).
  struct Group {
    std::vector<std::unique_ptr<Slot>> slots;
    std::size_t place = 0;  // in the pool below
  };
  // The groups in flight, owned here and handed from stage to stage as plain pointers: when a stage
  // throws, TBB drops the tokens still in flight, and the pool still frees them. At most `tokens_`
  // are in use at once; a group taken again gets fresh slots.
  struct GroupPool {
    std::mutex mutex;
    std::vector<std::unique_ptr<Group>> groups;
    std::vector<std::size_t> free;
    Group* take() {
      const std::lock_guard<std::mutex> lock(mutex);
      if (free.empty()) {
        groups.push_back(std::make_unique<Group>());
        groups.back()->place = groups.size() - 1;
        return groups.back().get();
      }
      Group* group = groups[free.back()].get();
      free.pop_back();
      return group;
    }
    void give_back(Group* group) {
      group->slots.clear();
      const std::lock_guard<std::mutex> lock(mutex);
      free.push_back(group->place);
    }
    // After the last give_back, whichever thread made it.
    ~GroupPool() { const std::lock_guard<std::mutex> lock(mutex); }
  };
  GroupPool pool;
  using GroupPtr = Group*;
  uint64_t next_index = 0;
  bool cancelled = false;
  bool input_ended = false;

  // Items waiting on I/O (a task's request, a judge call) are suspended TBB tasks, each on a
  // coroutine stack of its own. oneTBB keeps 4 stacks per arena slot for reuse and unmaps the rest
  // when a suspended task resumes: with hundreds of items in flight that is an mmap, page faults and
  // a munmap with a TLB shootdown per item. An arena with one slot per four items in flight keeps
  // every stack; the extra slots stay empty (the number of worker threads is the machine's, set by
  // oneTBB's market, not by the slot count). The extra slots are reserved for external threads
  // (none come), so the arena asks the market for the workers it would get anyway: asking for one
  // per slot makes oneTBB print "The number of workers is currently limited to ..." on stderr.
  const int cores = tbb::this_task_arena::max_concurrency();
  const int slots = std::max<int>(cores, static_cast<int>((tokens_ + 3) / 4));
  tbb::task_arena arena(slots, static_cast<unsigned>(slots - cores + 1));
  arena.execute([&] {
  tbb::parallel_pipeline(
      tokens_,
      tbb::make_filter<void, GroupPtr>(tbb::filter_mode::serial_in_order,
                                    [&](tbb::flow_control& fc) -> GroupPtr {
                                      // A serial stage runs on one thread at a time, not always the same.
                                      happens_after(&next_index);
                                      struct Ordered {
                                        void* stage;
                                        ~Ordered() { happens_before(stage); }
                                      } ordered{&next_index};
                                      Group* group = nullptr;
                                      while (!input_ended && (group == nullptr || group->slots.size() < group_size_)) {
                                        // Stopped while resuming, the run still passes on every item
                                        // the report held, so the new report loses none of them.
                                        const bool draining = cancellation_.requested();
                                        if (draining) cancelled = true;
                                        if (draining && !resume_) {
                                          input_ended = true;
                                          break;
                                        }
                                        DatasetRecord record = dataset ? dataset->next() : test_cases->next();
                                        if (record.kind == DatasetRecord::Kind::end) {
                                          input_ended = true;
                                          break;
                                        }
                                        std::optional<std::string> reported;
                                        const uint64_t index = record.index ? *record.index : next_index++;
                                        if (resume_) reported = resume_->take(index);
                                        if (draining && !reported) continue;
                                        if (group == nullptr) group = pool.take();
                                        auto slot = std::make_unique<Slot>();
                                        slot->index = index;
                                        slot->record = std::move(record);
                                        slot->reported = std::move(reported);
                                        group->slots.push_back(std::move(slot));
                                      }
                                      if (group == nullptr) {
                                        fc.stop();
                                        return nullptr;
                                      }
                                      happens_before(group);  // TBB passes the token on
                                      return group;
                                    }) &
          tbb::make_filter<GroupPtr, GroupPtr>(tbb::filter_mode::parallel,
                                         [&](GroupPtr group) {
                                           happens_after(group);
                                           std::array<ItemToProcess, kBatchedGroupSize> fresh;
                                           std::size_t count = 0;
                                           for (auto& slot : group->slots) {
                                             if (slot->reported)
                                               processor.replay(slot->index, slot->record, std::move(*slot->reported), slot->item);
                                             else
                                               fresh[count++] = {slot->index, &slot->record, &slot->item};
                                           }
                                           if (count > 0) processor.process(run_index, std::span(fresh.data(), count));
                                           for (auto& slot : group->slots) slot->record = {};
                                           happens_before(group);
                                           return group;
                                         }) &
          tbb::make_filter<GroupPtr, void>(tbb::filter_mode::serial_in_order, [&](GroupPtr owned) {
            happens_after(owned);
            happens_after(&run_stats);
            struct GiveBack {
              GroupPool& pool;
              Group* group;
              void* stage;
              ~GiveBack() {
                happens_before(stage);
                pool.give_back(group);
              }
            } give_back{pool, owned, &run_stats};
            for (const auto& slot : owned->slots) {
              if (slot->item.skipped) continue;  // another shard's item
              run_stats.add_item(slot->item.event);
              emit(slot->item.line);
              if (observer_) observer_->on_item(slot->item.event);
            }
          }));
  });

  // The pipeline's end orders every stage before this point (invisibly to ThreadSanitizer).
  happens_after(&next_index);
  happens_after(&run_stats);

  // Ctrl-C may arrive after the last record was read; the run is complete then.
  std::string finished;
  krino::event::append_finished(finished, run_index, cancelled, milliseconds_since(started), run_stats.summary(),
                                shard_info());
  emit(finished);
  flush_reporters();
  statistics.add_run(run_stats);
  return RunResult{cancelled};
}

ExperimentOutcome ExperimentRunner::run() {
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::string> names;
  for (const auto& ev : evaluators_) names.push_back(ev->name());
  ExperimentStatistics statistics(names);

  ExperimentOutcome outcome;
  for (uint32_t run = 0; run < config_.runs; ++run) {
    RunResult result;
    try {
      result = run_once(run, statistics);
    } catch (...) {
      // Keep what the reporters already have; the error itself goes to the caller.
      try {
        flush_reporters();
      } catch (...) {
      }
      throw;
    }
    if (result.cancelled) {
      outcome.cancelled = true;
      break;
    }
  }

  // Every line carries run_index; this one belongs to no run, so it is null.
  std::string finished;
  krino::event::append_finished(finished, std::nullopt, outcome.cancelled, milliseconds_since(started),
                                statistics.summary(), shard_info());
  emit(finished);
  flush_reporters();
  replace_resumed_report();

  outcome.pass_rate = statistics.pass_rate();
  outcome.total_count = statistics.total_count();
  outcome.error_count = statistics.error_count();
  outcome.summary = statistics.summary();
  // A run in which no item could be scored measured nothing, whatever min_pass_rate allows.
  const bool scored_any = outcome.error_count < outcome.total_count;
  outcome.passed = !outcome.cancelled && scored_any && outcome.pass_rate + 1e-12 >= config_.min_pass_rate;
  // A shard may own no example of a small dataset; that is no failure: the merged file is judged.
  if (config_.shard && !outcome.cancelled && outcome.total_count == 0) outcome.passed = true;
  return outcome;
}

}  // namespace krino::core
