// Running `krino-plugin-host --probe` on many libraries at once, on an I/O context of its own.
#include "krino/core/plugin/plugin_probe.hpp"

#include "krino/core/process/child_process.hpp"
#include "krino/core/process/process_run.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

#include <algorithm>
#include <thread>

extern char** environ;

namespace krino::core {
namespace {

// A probe prints one small document; anything bigger is not one.
constexpr std::size_t kMaxProbeDocument = 4u << 20;

void finish_probe(ProbeOutcome& outcome, const ProcessRunResult& result, std::chrono::milliseconds timeout) {
  using Ending = ProcessRunResult::Ending;
  if (result.ending == Ending::timed_out) {
    outcome.timed_out = true;
    outcome.failure = "its entry point did not return within " + std::to_string(timeout.count()) + " ms (stopped)";
    return;
  }
  if (result.ending == Ending::output_too_large) {
    outcome.failure = "its probe wrote more than " + std::to_string(kMaxProbeDocument >> 20) + " MiB";
    return;
  }
  if (result.status.success() && !result.output.empty()) {
    outcome.described = true;
    outcome.document = result.output;
    return;
  }
  outcome.failure = "loading it " + result.status.how_it_ended();
  // The last line of stderr: the loader's or the sanitizer's own words, when there are any.
  std::string_view tail = result.stderr_tail;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.remove_suffix(1);
  if (const size_t newline = tail.rfind('\n'); newline != std::string_view::npos) tail.remove_prefix(newline + 1);
  if (!tail.empty()) outcome.failure.append(" (").append(tail.substr(0, 300)).append(")");
}

}  // namespace

std::vector<ProbeOutcome> probe_libraries(const std::vector<std::filesystem::path>& files,
                                          const std::string& host_program, std::chrono::milliseconds timeout) {
  std::vector<ProbeOutcome> outcomes(files.size());
  if (files.empty()) return outcomes;
  ProcessLimits limits;
  limits.timeout = timeout;
  limits.kill_grace = std::chrono::milliseconds(0);  // a probe holds nothing worth a clean stop
  limits.max_output_bytes = kMaxProbeDocument;

  ProcessSpec spec;
  spec.executable = host_program;
  std::error_code ec;
  spec.working_directory = std::filesystem::current_path(ec);
  if (ec) spec.working_directory = "/";
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) spec.environment.emplace_back(*entry);

  boost::asio::io_context io;
  // Dynamic loading is mostly disk and relocation work: a few at a time keeps both cores busy.
  const size_t at_once = std::max<size_t>(2, std::thread::hardware_concurrency());
  size_t next = 0;
  std::function<void()> start_next = [&] {
    if (next >= files.size()) return;
    const size_t index = next++;
    ProbeOutcome& outcome = outcomes[index];
    outcome.path = files[index];
    ProcessSpec one = spec;
    one.arguments = {host_program, "--probe", files[index].string()};
    auto spawned = ChildProcess::spawn(boost::asio::make_strand(io), one);
    if (spawned.process == nullptr) {
      outcome.failure = "cannot start " + host_program + ": " + spawned.error;
      return start_next();
    }
    ProcessRun::start(std::move(spawned.process), std::string(), limits, ProcessRun::Clock::now(),
                      [&, index](ProcessRunResult result) {
                        finish_probe(outcomes[index], result, timeout);
                        start_next();
                      });
  };
  for (size_t i = 0; i < at_once; ++i) start_next();
  io.run();
  return outcomes;
}

}  // namespace krino::core
