#pragma once
// Every loaded plugin and its components, looked up by id or short name. Owns the libraries for
// the life of the process context; destroy it only after every component instance is gone.
#include "krino/core/plugin/loaded_plugin.hpp"
#include "krino/core/plugin/plugin_discovery.hpp"

#include <krino/plugin.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core {

struct PluginProblem {
  std::filesystem::path path;
  std::string message;
  std::string to_string() const { return path.string() + ": " + message; }
};

class PluginRegistry {
 public:
  PluginRegistry() = default;
  ~PluginRegistry();
  PluginRegistry(const PluginRegistry&) = delete;
  PluginRegistry& operator=(const PluginRegistry&) = delete;

  // Scans the search directories and loads every plugin (or only the allow-listed ones), or, with
  // search.probe_program, probes them and registers what the probes describe, to be opened on first
  // use. A plugin that fails (or whose probe crashed or timed out) is recorded in problems() and
  // skipped; it never stops the others. Throws a configuration error when an allow-listed name
  // matches no file.
  void load(const PluginSearch& search, const krino_host_info& host_info);

  // Loads one library file (tests, and `--plugin` style use). Returns false and records a problem
  // when it fails.
  bool load_file(const std::filesystem::path& path, const krino_host_info& host_info);

  const std::vector<std::unique_ptr<LoadedPlugin>>& plugins() const { return plugins_; }
  const std::vector<PluginProblem>& problems() const { return problems_; }
  const std::vector<std::filesystem::path>& searched_dirs() const { return searched_dirs_; }

  // The component of `kind` whose id or short name is `key`. Throws a configuration error naming
  // the candidates when there is none or the short name is ambiguous.
  const Component& find(ComponentKind kind, std::string_view key) const;
  const Component* try_find(ComponentKind kind, std::string_view key) const;

  std::vector<const Component*> components(ComponentKind kind) const;
  std::vector<const Component*> all_components() const;

 private:
  const Component* find_by_id(std::string_view id) const;
  // Keeps `plugin` unless its id or a component id is taken (a problem, or a shadowed copy further
  // down the search path). Returns whether it was kept.
  bool add(std::unique_ptr<LoadedPlugin> plugin);
  void probe_and_add(const std::vector<std::filesystem::path>& files, const PluginSearch& search,
                     const krino_host_info& host_info);

  std::vector<std::unique_ptr<LoadedPlugin>> plugins_;
  std::vector<PluginProblem> problems_;
  std::vector<std::filesystem::path> searched_dirs_;
};

}  // namespace krino::core
