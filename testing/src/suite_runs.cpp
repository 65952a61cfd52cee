#include "krino/testing/suite_runs.hpp"

#include <krino/json_parse.hpp>

#include <boost/json.hpp>

#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>

namespace krino::testing {

struct SuiteRuns::State {
  RunOptions defaults;
  LoadOptions plugin_options;
  bool enabled = false;
  std::mutex mutex;
  std::optional<Evaluators> plugins;  // loaded with the first item
  std::map<std::string, std::unique_ptr<TestRun>> runs;
};

namespace {

bool server_url_known(const RunOptions& options) {
  if (const char* url = std::getenv("KRINO_SERVER_URL"); url != nullptr && *url != '\0') return true;
  boost::system::error_code ec;
  const boost::json::value reporter_options = krino::json::parse(options.reporter_options_json, ec);
  return !ec && reporter_options.is_object() && reporter_options.get_object().contains("url");
}

}  // namespace

SuiteRuns::SuiteRuns(RunOptions defaults, LoadOptions plugins) : state_(std::make_unique<State>()) {
  state_->enabled = defaults.reporter != "server" || server_url_known(defaults);
  state_->defaults = std::move(defaults);
  state_->plugin_options = std::move(plugins);
}

SuiteRuns::~SuiteRuns() = default;

bool SuiteRuns::enabled() const { return state_->enabled; }

void SuiteRuns::record(const std::string& suite, const Example& example, const ItemRecorder& recorded,
                       bool test_passed) {
  if (!state_->enabled) return;
  TestRun* run = nullptr;
  {
    std::lock_guard lock(state_->mutex);
    if (!state_->plugins) state_->plugins.emplace(load_evaluators(state_->plugin_options));
    std::unique_ptr<TestRun>& slot = state_->runs[suite];
    if (!slot) {
      RunOptions options = state_->defaults;
      options.experiment = suite;
      slot = std::make_unique<TestRun>(*state_->plugins, std::move(options));
    }
    run = slot.get();
  }
  run->record(example, recorded, test_passed);
}

void SuiteRuns::finish() {
  std::lock_guard lock(state_->mutex);
  std::string failures;
  for (auto& [suite, run] : state_->runs) {
    try {
      run->finish();
    } catch (const Error& e) {
      failures.append(failures.empty() ? "" : "\n").append(suite).append(": ").append(e.what());
    }
  }
  if (!failures.empty()) throw Error(failures);
}

}  // namespace krino::testing
