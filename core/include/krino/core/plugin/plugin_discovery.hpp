#pragma once
// Where plugins are looked for, in order: --plugin-dir (each, as given), KRINO_PLUGIN_PATH
// (colon-separated), the directory beside the executable (../lib/krino/plugins: the build tree and
// a relocated install), then the configured install directory.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace krino::core {

struct PluginSearch {
  std::vector<std::filesystem::path> plugin_dirs;     // --plugin-dir
  std::optional<std::string> plugin_path_env;         // KRINO_PLUGIN_PATH
  std::optional<std::filesystem::path> executable;    // for the build-tree / relocated directory
  bool include_install_dir = true;
  std::vector<std::string> allow_list;                // --plugins: empty = every plugin found
  // When set, each library is first loaded by this program (krino-plugin-host --probe) in a child
  // process, and opened in this one only when one of its components is used: a library whose entry
  // point crashes or hangs is then a problem named with the signal or the time limit, not the end
  // of the command. Empty: every library is loaded in this process at once.
  std::string probe_program;
  std::optional<std::filesystem::path> probe_cache;   // what earlier probes found; none: probe every time
  std::string probe_cache_generation;                 // invalidates the whole cache when it changes
  std::chrono::milliseconds probe_timeout{10000};     // per library
};

// The ordered, de-duplicated directories to scan.
std::vector<std::filesystem::path> plugin_search_dirs(const PluginSearch& search);

// Every plugin library in `dirs` (files ending in .so), in directory order, sorted by name within
// a directory, the same file never twice.
std::vector<std::filesystem::path> find_plugin_files(const std::vector<std::filesystem::path>& dirs);

// The name a plugin is selected by in --plugins: the file stem without a leading "krino-"
// ("krino-text.so" -> "text").
std::string plugin_selection_name(const std::filesystem::path& file);

}  // namespace krino::core
