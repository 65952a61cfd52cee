#pragma once
// Turns a component use from an experiment file (or the CLI) into a live handle: looks the
// component up, validates the options against its schema, and creates the instance(s).
#include "krino/core/common/cancellation.hpp"
#include "krino/core/experiment/experiment_config.hpp"
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/runner/evaluator_handle.hpp"
#include "krino/core/runner/evaluator_run_options.hpp"
#include "krino/core/runner/reporter_handle.hpp"

#include <boost/asio/io_context.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>

namespace krino::core {

// Throws a configuration error listing every schema violation.
void validate_options(const Component& component, const boost::json::object& options, const std::string& what);

// The name an evaluator reports under: its "name" option, else the component's short name.
std::string evaluator_display_name(const Component& component, const boost::json::object& options);

// What an evaluator may need from the run to be set up.
struct EvaluatorEnvironment {
  const krino_host* host = nullptr;
  size_t threads = 1;                       // TBB workers: instances of an in-process evaluator
  boost::asio::io_context* io = nullptr;    // for evaluators in worker processes (null: none allowed)
  std::uint32_t parallelism = 1;            // the default number of worker processes
  std::filesystem::path base_dir;           // resolves a subprocess evaluator's command and cwd
  EvaluatorIsolation isolation = EvaluatorIsolation::none;  // the experiment's default
  std::function<bool()> cancelled;          // the run's cancellation, polled by worker calls
  const Cancellation* cancellation = nullptr;  // the same, for waits that end early (an HTTP retry's)
};

std::unique_ptr<EvaluatorHandle> make_evaluator(const PluginRegistry& registry, const ComponentUse& use,
                                                const EvaluatorEnvironment& environment);
// An evaluator in this process (tests, benchmarks).
std::unique_ptr<EvaluatorHandle> make_evaluator(const PluginRegistry& registry, const ComponentUse& use,
                                                const krino_host* host, size_t workers);

// The krino-plugin-host program that runs a plugin under `isolation: process`: $KRINO_PLUGIN_HOST,
// else the one beside the running executable.
std::string plugin_host_program();
std::unique_ptr<ReporterHandle> make_reporter(const PluginRegistry& registry, const ComponentUse& use,
                                              const krino_host* host);

}  // namespace krino::core
