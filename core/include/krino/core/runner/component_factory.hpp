#pragma once
// Turns a component use from an experiment file (or the CLI) into a live handle: looks the
// component up, validates the options against its schema, and creates the instance(s).
#include "krino/core/experiment/experiment_config.hpp"
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/runner/evaluator_handle.hpp"
#include "krino/core/runner/reporter_handle.hpp"

#include <memory>

namespace krino::core {

// Throws a configuration error listing every schema violation.
void validate_options(const Component& component, const boost::json::object& options, const std::string& what);

// The name an evaluator reports under: its "name" option, else the component's short name.
std::string evaluator_display_name(const Component& component, const boost::json::object& options);

std::unique_ptr<EvaluatorHandle> make_evaluator(const PluginRegistry& registry, const ComponentUse& use,
                                                const krino_host* host, size_t workers);
std::unique_ptr<ReporterHandle> make_reporter(const PluginRegistry& registry, const ComponentUse& use,
                                              const krino_host* host);

}  // namespace krino::core
