#include "plugin_options.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/plugin/plugin_probe_cache.hpp"
#include "krino/core/runner/component_factory.hpp"
#include "krino/core/version.hpp"

#include <krino/plugin.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace krino::cli {
namespace {

// Discovery probes libraries with krino-plugin-host when it is installed beside krino (or named by
// KRINO_PLUGIN_HOST), caching what it found; without it (an SDK-only or partial install) every
// library is loaded in this process as before, and a crashing entry point ends the command.
void use_probes(core::PluginSearch& search) {
  std::string program;
  try {
    program = core::plugin_host_program();
  } catch (const core::KrinoError&) {
    return;
  }
  // KRINO_PLUGIN_HOST naming nothing runnable is the same case (isolation: process reports it).
  if (::access(program.c_str(), X_OK) != 0) return;
  search.probe_program = program;
  search.probe_cache = core::PluginProbeCache::default_file();
  // A rebuilt or upgraded host (or prober) may read a library differently: its cache starts over.
  search.probe_cache_generation = std::string(core::kVersion) + " abi " + std::to_string(KRINO_ABI_MAJOR) + "." +
                                  std::to_string(KRINO_ABI_MINOR) + " " + search.probe_program + " " +
                                  core::PluginProbeCache::file_identity(search.probe_program).value_or("?");
  if (const char* timeout = std::getenv("KRINO_PLUGIN_PROBE_TIMEOUT_MS"); timeout != nullptr && *timeout != '\0') {
    char* end = nullptr;
    const long value = std::strtol(timeout, &end, 10);
    if (end != nullptr && *end == '\0' && value > 0) search.probe_timeout = std::chrono::milliseconds(value);
  }
}

}  // namespace

void PluginOptions::add_to(CLI::App& command) {
  // One value per occurrence, so `--plugin-dir d cases.jsonl` never swallows the positional file.
  command.add_option("--plugin-dir", plugin_dirs, "Look for plugins in DIR first (repeatable)")
      ->type_name("DIR")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);  // CLI11 lets a list option take the next positional otherwise
  command.add_option("--plugins", allow_list, "Load only these plugins, by name (text,files,json)")
      ->delimiter(',')
      ->type_name("NAMES")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  command.add_flag("-v,--verbose", verbosity, "Log more (repeat for debug output)");
}

void PluginOptions::load(core::PluginRegistry& registry, const core::HostServices& host, bool report_problems) const {
  core::PluginSearch search;
  for (const auto& dir : plugin_dirs) search.plugin_dirs.emplace_back(dir);
  if (const char* env = std::getenv("KRINO_PLUGIN_PATH"); env != nullptr && *env != '\0') search.plugin_path_env = env;
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) search.executable = self;
  search.allow_list = allow_list;
  use_probes(search);
  registry.load(search, *host.host_info());
  if (!report_problems) return;
  for (const auto& problem : registry.problems()) {
    std::fprintf(stderr, "krino: warning: plugin not loaded: %s\n", problem.to_string().c_str());
  }
}

}  // namespace krino::cli
