#include "krino/core/runner/component_factory.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/plugin/config_validator.hpp"
#include "krino/core/plugin/loaded_plugin.hpp"
#include "krino/core/runner/http_evaluator.hpp"
#include "krino/core/runner/in_process_evaluator.hpp"
#include "krino/core/runner/worker_evaluator.hpp"

#include <krino/plugin/schema_defaults.hpp>

#include <algorithm>
#include <cstdlib>

extern char** environ;

namespace krino::core {

void validate_options(const Component& component, const boost::json::object& options, const std::string& what) {
  std::vector<std::string> problems = component.validator().validate(boost::json::value(options));
  if (problems.empty()) return;
  std::string message = what + " '" + component.name + "' has invalid options:";
  for (const auto& p : problems) message += "\n  " + p;
  message += "\n(see `krino plugins info " + component.name + "`)";
  throw config_error(message);
}

std::string evaluator_display_name(const Component& component, const boost::json::object& options) {
  if (auto it = options.find("name"); it != options.end() && it->value().is_string() &&
                                      !it->value().get_string().empty())
    return std::string(it->value().get_string());
  return component.name;
}

namespace {

void log_warning(const krino_host* host, const std::string& message) {
  if (host != nullptr) host->log(host, KRINO_LOG_WARNING, "evaluator", message.data(), message.size());
}

WorkerEvaluatorSettings worker_settings(const EvaluatorRunOptions& run, const EvaluatorEnvironment& environment,
                                        ProcessSpec process, std::string what) {
  WorkerEvaluatorSettings settings;
  settings.process = std::move(process);
  settings.process.memory_limit_bytes = run.memory_limit_bytes;
  settings.limits = run.limits;
  settings.limits.cancelled = environment.cancelled;
  settings.workers = run.workers.value_or(std::max<std::uint32_t>(1, environment.parallelism));
  settings.what = std::move(what);
  return settings;
}

// An evaluator that describes itself in a krino.evaluatorworker/1 handshake (use: subprocess, use:
// http_evaluator): the component is filled in from it, the options are checked against its schema,
// and returned with every top-level default of the schema filled in.
auto handshake_check(const std::shared_ptr<Component>& component, const EvaluatorRunOptions& run) {
  return [component, &run](const WorkerHandshake& handshake) {
    component->kind = ComponentKind::evaluator;
    component->id = handshake.id;
    component->name = handshake.name;
    component->version = handshake.version;
    component->description = handshake.description;
    component->capabilities = handshake.capabilities;
    component->config_schema = handshake.config_schema;
    try {
      component->set_validator(std::make_shared<ConfigValidator>(handshake.config_schema));
    } catch (const std::exception& e) {
      throw config_error("its handshake's configSchema is not a usable JSON Schema: " + std::string(e.what()));
    }
    validate_options(*component, run.options, "evaluator");
    // The worker gets every top-level default its schema declares filled in: a script need not
    // repeat its own defaults.
    boost::json::object options = krino::schema_defaults(handshake.config_schema);
    for (const auto& [key, value] : run.options) options[key] = value;
    return options;
  };
}

// use: subprocess. The evaluator is whatever the first worker's handshake says it is.
std::unique_ptr<EvaluatorHandle> make_subprocess_evaluator(const EvaluatorRunOptions& run,
                                                           const EvaluatorEnvironment& environment) {
  auto component = std::make_shared<Component>();
  const std::string what = "subprocess evaluator '" + run.command->command_text + "'";
  const WorkerEvaluator::CheckHandshake check = handshake_check(component, run);
  auto backend = std::make_unique<WorkerEvaluator>(
      *environment.io, worker_settings(run, environment, run.command->process, what), std::string(), check,
      [host = environment.host](const std::string& message) { log_warning(host, message); });
  if (component->has(KRINO_CAP_NEEDS_JUDGE))
    throw config_error(what + " says it needs the judge; evaluators in worker processes cannot call it yet");
  const std::string name = evaluator_display_name(*component, run.options);
  backend->set_name(name);
  return std::make_unique<EvaluatorHandle>(std::shared_ptr<const Component>(component), name, run.options,
                                           std::move(backend));
}

// use: http_evaluator. The evaluator is whatever the server's handshake says it is.
std::unique_ptr<EvaluatorHandle> make_http_evaluator(const EvaluatorRunOptions& run,
                                                     const EvaluatorEnvironment& environment) {
  auto component = std::make_shared<Component>();
  HttpEvaluatorSettings settings = read_http_evaluator_settings(run.http, environment.base_dir);
  const std::string what = settings.what;
  auto backend = std::make_unique<HttpEvaluator>(*environment.io, std::move(settings), handshake_check(component, run),
                                                 environment.cancellation);
  if (component->has(KRINO_CAP_NEEDS_JUDGE))
    throw config_error(what + " says it needs the judge; a remote evaluator cannot call it");
  const std::string name = evaluator_display_name(*component, run.options);
  backend->set_name(name);
  return std::make_unique<EvaluatorHandle>(std::shared_ptr<const Component>(component), name, run.options,
                                           std::move(backend));
}

// A plugin evaluator under isolation: process, run by krino-plugin-host.
std::unique_ptr<EvaluatorHandle> make_isolated_evaluator(const Component& component, const EvaluatorRunOptions& run,
                                                         const EvaluatorEnvironment& environment) {
  const std::string name = evaluator_display_name(component, run.options);
  const std::string what = "evaluator '" + name + "' (" + component.id + ", isolation: process)";
  if (component.has(KRINO_CAP_NEEDS_JUDGE))
    throw config_error(what + ": it needs the judge, which a plugin in a worker process cannot call yet; "
                              "run it with isolation: none");
  if (component.plugin == nullptr) throw config_error(what + ": it is not from a plugin library");
  ProcessSpec process;
  process.executable = plugin_host_program();
  process.arguments = {process.executable, "--library", component.plugin->path.string(), "--component", component.id};
  // The limit is also set on the process once it is spawned (prlimit: posix_spawn has no rlimit),
  // but only after its start-up has begun; krino-plugin-host sets it on itself first, so its
  // handshake (one request at a time under a limit) is never answered without it.
  if (run.memory_limit_bytes > 0)
    process.arguments.insert(process.arguments.end(), {"--memory-limit-bytes", std::to_string(run.memory_limit_bytes)});
  process.working_directory = std::filesystem::current_path();
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) process.environment.emplace_back(*entry);
  auto check = [&](const WorkerHandshake& handshake) {
    if (handshake.id != component.id)
      throw config_error("krino-plugin-host serves '" + handshake.id + "', not '" + component.id + "'");
    return run.options;
  };
  WorkerEvaluatorSettings settings = worker_settings(run, environment, std::move(process), what);
  // A plugin that only computes (it neither reaches the network nor waits for the judge) is served
  // in turn by each worker, with requests pipelined: copies beyond the run's threads only take CPU
  // from each other and from krino (64 workers on 2 cores ran exact_match 3x slower than 2).
  if (!run.workers && !component.has(KRINO_CAP_NEEDS_NETWORK))
    settings.workers = std::min(settings.workers, std::max<std::size_t>(1, environment.threads));
  auto backend = std::make_unique<WorkerEvaluator>(
      *environment.io, std::move(settings), name, check,
      [host = environment.host](const std::string& message) { log_warning(host, message); });
  return std::make_unique<EvaluatorHandle>(component, name, run.options, std::move(backend));
}

}  // namespace

std::string plugin_host_program() {
  if (const char* given = std::getenv("KRINO_PLUGIN_HOST"); given != nullptr && *given != '\0') return given;
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  const std::filesystem::path beside = self.parent_path() / "krino-plugin-host";
  if (error || !std::filesystem::exists(beside, error))
    throw config_error("isolation: process needs the krino-plugin-host program, which is not beside " + self.string() +
                       " (set KRINO_PLUGIN_HOST to its path)");
  return beside.string();
}

std::unique_ptr<EvaluatorHandle> make_evaluator(const PluginRegistry& registry, const ComponentUse& use,
                                                const EvaluatorEnvironment& environment) {
  EvaluatorRunOptions run = read_evaluator_run_options(use, environment.isolation, environment.base_dir);
  const bool subprocess = use.component == kSubprocessEvaluator;
  if (use.component == kHttpEvaluator) {
    if (environment.io == nullptr)
      throw config_error("evaluator '" + use.component + "': this command runs evaluators in this process only");
    return make_http_evaluator(run, environment);
  }
  if ((subprocess || run.isolation == EvaluatorIsolation::process) && environment.io == nullptr)
    throw config_error("evaluator '" + use.component + "': this command runs evaluators in this process only");
  if (subprocess) return make_subprocess_evaluator(run, environment);
  const Component& component = registry.find(ComponentKind::evaluator, use.component);
  validate_options(component, run.options, "evaluator");
  if (run.isolation == EvaluatorIsolation::process) return make_isolated_evaluator(component, run, environment);
  const std::string name = evaluator_display_name(component, run.options);
  auto backend = std::make_unique<InProcessEvaluator>(component, environment.host, name, run.options,
                                                      environment.threads, run.timeout);
  return std::make_unique<EvaluatorHandle>(component, name, run.options, std::move(backend));
}

std::unique_ptr<EvaluatorHandle> make_evaluator(const PluginRegistry& registry, const ComponentUse& use,
                                                const krino_host* host, size_t workers) {
  EvaluatorEnvironment environment;
  environment.host = host;
  environment.threads = workers;
  return make_evaluator(registry, use, environment);
}

std::unique_ptr<ReporterHandle> make_reporter(const PluginRegistry& registry, const ComponentUse& use,
                                              const krino_host* host) {
  const Component& component = registry.find(ComponentKind::reporter, use.component);
  validate_options(component, use.options, "reporter");
  return std::make_unique<ReporterHandle>(component, host, use.options);
}

}  // namespace krino::core
