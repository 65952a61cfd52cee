#include "plugin_options.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace krino::cli {

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
  registry.load(search, *host.host_info());
  if (!report_problems) return;
  for (const auto& problem : registry.problems()) {
    std::fprintf(stderr, "krino: warning: plugin not loaded: %s\n", problem.to_string().c_str());
  }
}

}  // namespace krino::cli
