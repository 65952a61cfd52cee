#pragma once
// The plugin-selection options every command shares, and loading the registry from them.
#include "krino/core/host/host_services.hpp"
#include "krino/core/plugin/plugin_registry.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace krino::cli {

struct PluginOptions {
  std::vector<std::string> plugin_dirs;
  std::vector<std::string> allow_list;
  int verbosity = 0;

  void add_to(CLI::App& command);
  // Loads the plugins, and prints each one that failed as a warning (unless quiet).
  void load(core::PluginRegistry& registry, const core::HostServices& host, bool report_problems = true) const;
};

}  // namespace krino::cli
