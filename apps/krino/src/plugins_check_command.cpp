// `krino plugins check LIB.so`: probes the library in a worker (krino-plugin-host --probe), then
// runs one worker per component (krino-plugin-host --check) under a time and a memory limit, and
// prints what the plugin's author must fix, one line each. A worker that crashes, aborts, hangs or
// runs out of memory is itself the finding, named with the call it was in.
#include "commands.hpp"
#include "exit_codes.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/plugin/plugin_probe.hpp"
#include "krino/core/process/child_process.hpp"
#include "krino/core/process/process_run.hpp"
#include "krino/core/runner/component_factory.hpp"

#include <krino/json_parse.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <boost/json.hpp>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

extern char** environ;

namespace krino::cli {
namespace {

namespace json = boost::json;

core::ProcessRunResult run_check_worker(const core::ProcessSpec& spec, const core::ProcessLimits& limits) {
  boost::asio::io_context io;
  core::ProcessRunResult outcome;
  auto spawned = core::ChildProcess::spawn(boost::asio::make_strand(io), spec);
  if (spawned.process == nullptr) throw core::runtime_error("cannot start " + spec.executable + ": " + spawned.error);
  core::ProcessRun::start(std::move(spawned.process), std::string(), limits, core::ProcessRun::Clock::now(),
                          [&](core::ProcessRunResult result) { outcome = std::move(result); });
  io.run();
  return outcome;
}

struct ComponentFindings {
  std::vector<std::string> problems;
  std::vector<std::string> notes;
};

ComponentFindings check_one(const core::Component& component, const PluginsCheckArguments& args,
                            const std::string& host_program) {
  core::ProcessSpec spec;
  spec.executable = host_program;
  spec.arguments = {host_program, "--check", "--library", args.library, "--component", component.id};
  spec.working_directory = std::filesystem::current_path();
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) spec.environment.emplace_back(*entry);
  spec.memory_limit_bytes = static_cast<std::uint64_t>(args.memory_mb) << 20;
  core::ProcessLimits limits;
  limits.timeout = std::chrono::milliseconds(args.timeout_ms);
  limits.kill_grace = std::chrono::milliseconds(0);
  const core::ProcessRunResult result = run_check_worker(spec, limits);

  ComponentFindings findings;
  std::string last_call = "loading the library";
  bool done = false;
  size_t start = 0;
  const std::string& output = result.output;
  while (start < output.size()) {
    size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    json::error_code ec;
    const json::value line = krino::json::parse(std::string_view(output).substr(start, end - start), ec);
    start = end + 1;
    if (ec || !line.is_object()) continue;
    const json::object& o = line.get_object();
    auto text = [&](std::string_view key) -> const json::string* {
      const json::value* v = o.if_contains(key);
      return v != nullptr && v->is_string() ? &v->get_string() : nullptr;
    };
    if (const json::string* call = text("call")) last_call = std::string(*call);
    if (const json::string* problem = text("problem")) findings.problems.emplace_back(*problem);
    if (const json::string* note = text("note")) findings.notes.emplace_back(*note);
    if (o.contains("done")) done = true;
  }
  using Ending = core::ProcessRunResult::Ending;
  if (result.ending == Ending::timed_out) {
    // The limit is for all of a component's calls: the one still running is most likely the one that hangs.
    findings.problems.push_back(last_call + " had not returned when the component's " + std::to_string(args.timeout_ms) +
                                " ms (--timeout-ms) ran out; the worker was stopped");
  } else if (result.ending == Ending::output_too_large) {
    findings.problems.push_back(last_call + ": the worker's report grew past its limit");
  } else if (!done || !result.status.success()) {
    std::string problem = last_call + ": the worker " + result.status.how_it_ended();
    std::string_view tail = result.stderr_tail;
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.remove_suffix(1);
    if (const size_t newline = tail.rfind('\n'); newline != std::string_view::npos) tail.remove_prefix(newline + 1);
    if (!tail.empty()) problem.append("; its last words: ").append(tail.substr(0, 300));
    findings.problems.push_back(std::move(problem));
  }
  return findings;
}

}  // namespace

int plugins_check_command(const PluginsCheckArguments& args) {
  if (!std::filesystem::is_regular_file(args.library))
    throw core::config_error("no plugin library at " + args.library);
  const std::string host_program = core::plugin_host_program();
  const std::vector<core::ProbeOutcome> probed =
      core::probe_libraries({std::filesystem::path(args.library)}, host_program, std::chrono::milliseconds(args.timeout_ms));
  const core::ProbeOutcome& probe = probed.front();
  // A library that cannot be loaded has that one problem; there is nothing else to check.
  auto unloadable = [&](const std::string& why) {
    std::printf("%s: not loaded\nproblem: %s\n1 problem\n", args.library.c_str(), why.c_str());
    return kEvaluationFailed;
  };
  if (!probe.described) return unloadable(probe.failure);
  // The host info is only kept for a later in-process load, which this command never makes.
  const krino_host_info unused_host_info{};
  core::LoadResult described = core::plugin_from_probe(probe.document, args.library, unused_host_info);
  if (!described.ok()) return unloadable("krino refuses to load it: " + described.error().message);
  const core::LoadedPlugin& plugin = *described.value();
  std::printf("%s: plugin %s %s, %zu component%s\n", args.library.c_str(), plugin.id.c_str(), plugin.version.c_str(),
              plugin.components.size(), plugin.components.size() == 1 ? "" : "s");
  size_t problems = 0;
  if (plugin.components.empty()) {
    std::printf("problem: %s: the descriptor lists no component\n", plugin.id.c_str());
    ++problems;
  }
  for (const core::Component& component : plugin.components) {
    const ComponentFindings findings = check_one(component, args, host_program);
    const std::string who = std::string(core::component_kind_name(component.kind)) + " " + component.name + " (" + component.id + ")";
    std::printf("%s: %s\n", who.c_str(), findings.problems.empty() ? "ok" : (std::to_string(findings.problems.size()) + " problem(s)").c_str());
    for (const std::string& note : findings.notes) std::printf("  note: %s\n", note.c_str());
    for (const std::string& problem : findings.problems) std::printf("problem: %s: %s\n", component.id.c_str(), problem.c_str());
    problems += findings.problems.size();
  }
  std::printf("%zu problem%s\n", problems, problems == 1 ? "" : "s");
  return problems == 0 ? kSuccess : kEvaluationFailed;
}

}  // namespace krino::cli
