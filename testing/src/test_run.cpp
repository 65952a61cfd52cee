// A test run as a krino run: the events the runner writes for a run (run_started, item_finished,
// run_finished, through the SDK's event codec) handed to a reporter plugin as the runner hands them.
#include "krino/testing/test_run.hpp"

#include "host_context.hpp"

#include "krino/core/common/utc_time.hpp"
#include "krino/core/runner/component_factory.hpp"
#include "krino/core/statistics/run_statistics.hpp"

#include <krino/event/item_finished.hpp>
#include <krino/event/run_finished.hpp>
#include <krino/event/run_started.hpp>
#include <krino/json_parse.hpp>

#include <boost/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <set>

namespace krino::testing {
namespace json = boost::json;

namespace {

json::object object_from(std::string_view text, const std::string& what) {
  boost::system::error_code ec;
  json::value value = krino::json::parse(text, ec);
  if (ec || !value.is_object()) throw Error(what + " must be a JSON object");
  return std::move(value.get_object());
}

// What the run's summary needs of an item, kept until the run finishes (the evaluators are known
// only as tests record them).
struct ItemVerdict {
  bool success = false;
  bool error = false;
  std::vector<core::ScoreRecord> results;
};

}  // namespace

ItemRecorder& ItemRecorder::actual_output(std::string_view key, std::string_view value) {
  json::object outputs = object_from(actual_outputs_, "the actual outputs");
  outputs[key] = value;
  actual_outputs_ = json::serialize(outputs);
  return *this;
}

ItemRecorder& ItemRecorder::actual_outputs(std::string_view json_object) {
  json::object outputs = object_from(actual_outputs_, "the actual outputs");
  for (auto& member : object_from(json_object, "the actual outputs")) outputs[member.key()] = member.value();
  actual_outputs_ = json::serialize(outputs);
  return *this;
}

ItemRecorder& ItemRecorder::eval_result(const EvalOutcome& outcome) {
  results_.push_back(outcome);
  return *this;
}

ItemRecorder& ItemRecorder::eval_results(const EvalCheck& check) {
  results_.insert(results_.end(), check.outcomes.begin(), check.outcomes.end());
  return *this;
}

struct TestRun::State {
  std::shared_ptr<detail::HostContext> context;  // first: the reporter below is its plugin's
  RunOptions options;
  json::object metadata;
  std::unique_ptr<core::ReporterHandle> reporter;
  mutable std::mutex mutex;
  bool opened = false;
  bool finished = false;
  std::chrono::steady_clock::time_point started;
  std::vector<ItemVerdict> verdicts;

  void open() {
    krino::event::RunStarted event;
    event.experiment_name = options.experiment;
    event.experiment_metadata = metadata;
    event.dataset.uri = "";
    event.timestamp = core::utc_timestamp_now();
    std::string line;
    krino::event::append_run_started(line, event);
    reporter->on_event(line);
    started = std::chrono::steady_clock::now();
    opened = true;
  }
};

TestRun::TestRun(const Evaluators& plugins, RunOptions options) : state_(std::make_unique<State>()) {
  state_->context = plugins.host_;
  state_->metadata = object_from(options.metadata_json, "the run's metadata");
  json::object reporter_options = object_from(options.reporter_options_json, "the options of reporter '" + options.reporter + "'");
  state_->options = std::move(options);
  try {
    state_->reporter = core::make_reporter(state_->context->registry,
                                           core::ComponentUse{state_->options.reporter, std::move(reporter_options)},
                                           state_->context->host.host());
  } catch (const std::exception& e) {
    throw Error(e.what());
  }
}

TestRun::~TestRun() {
  try {
    finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "krino: test run '%s': %s\n", state_->options.experiment.c_str(), e.what());
  }
}

void TestRun::record(const Example& example, const ItemRecorder& recorded, bool test_passed) {
  // The item's buffers: the event's views point into them.
  const std::string id = example.id().empty() ? std::string() : json::serialize(json::string(example.id()));
  const std::string inputs = example.section("inputs");
  const std::string expected = example.section("expectedOutputs");
  const std::string metadata = example.section("metadata");

  krino::event::ItemFinished item;
  ItemVerdict verdict;
  item.index = example.index();
  item.id = id;
  if (!example.location().empty()) item.location = example.location();
  item.inputs = inputs;
  item.expected_outputs = expected;
  item.metadata = metadata;
  item.actual_outputs = recorded.actual_outputs_json();
  item.success = test_passed;
  for (const EvalOutcome& outcome : recorded.results()) {
    if (!outcome.error.empty()) {
      // The first evaluator that could not score is the item's error, as in a krino run.
      if (!item.error) item.error = krino::event::ItemError{"evaluator", outcome.name, "INTERNAL", outcome.error};
      continue;
    }
    krino::event::ItemResult result;
    result.json = outcome.result_json;
    result.name = outcome.name;
    result.score = outcome.score;
    result.success = outcome.success;
    result.threshold = outcome.threshold;
    result.reason = outcome.reason;
    result.skipped = outcome.skipped;
    item.results.push_back(std::move(result));
    item.success = item.success && outcome.success;
    verdict.results.push_back(core::ScoreRecord{outcome.name, outcome.score, outcome.success});
  }
  if (item.error) {
    item.success = false;
    item.results.clear();  // an item with an error has no results, as in a krino run
    verdict.results.clear();
  }
  verdict.success = item.success;
  verdict.error = item.error.has_value();

  std::lock_guard lock(state_->mutex);
  if (state_->finished) throw Error("test run '" + state_->options.experiment + "' is finished; it takes no more items");
  try {
    if (!state_->opened) state_->open();
    item.run_index = 0;
    std::string line;
    krino::event::append_item_finished(line, item);
    state_->reporter->on_event(line);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(e.what());
  }
  state_->verdicts.push_back(std::move(verdict));
}

void TestRun::finish() {
  std::lock_guard lock(state_->mutex);
  if (!state_->opened || state_->finished) return;
  state_->finished = true;
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const auto& verdict : state_->verdicts)
    for (const auto& result : verdict.results)
      if (seen.insert(result.name).second) names.push_back(result.name);
  core::RunStatistics statistics(names);
  for (const auto& verdict : state_->verdicts) statistics.add_item(verdict.success, verdict.error, verdict.results);
  const double duration_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - state_->started).count();
  std::string line;
  krino::event::append_finished(line, 0u, false, std::round(duration_ms * 1000.0) / 1000.0, statistics.summary());
  try {
    state_->reporter->on_event(line);
    state_->reporter->flush();
  } catch (const std::exception& e) {
    throw Error(e.what());
  }
}

std::uint64_t TestRun::items() const {
  std::lock_guard lock(state_->mutex);
  return state_->verdicts.size();
}

}  // namespace krino::testing
