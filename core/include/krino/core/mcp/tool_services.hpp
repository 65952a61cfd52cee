#pragma once
// What krino's evaluation and store tools share: the loaded plugins, how loud plugin logs are (on
// standard error; standard output is the protocol's), and the results store, opened on the first
// call that needs it, so a session that only lists evaluators never touches the disk.
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/store/store.hpp"

#include <krino/plugin.h>

#include <memory>
#include <mutex>
#include <string>

namespace krino::core::mcp {

class ToolServices {
 public:
  // `database` and `data_dir` as `krino mcp --database/--data-dir` give them (store/data_location.hpp).
  // `plugins` must outlive the services.
  ToolServices(const PluginRegistry& plugins, std::string database, std::string data_dir,
               krino_log_level log_level = KRINO_LOG_WARNING);
  ~ToolServices();

  const PluginRegistry& plugins() const noexcept { return plugins_; }
  krino_log_level log_level() const noexcept { return log_level_; }

  // The store, opened on first use (thread-safe). Throws ToolError naming the database when it
  // cannot be opened; the next call tries again.
  store::Store& store();

 private:
  const PluginRegistry& plugins_;
  std::string database_;
  std::string data_dir_;
  krino_log_level log_level_;
  std::mutex mutex_;
  std::unique_ptr<store::Store> store_;
};

}  // namespace krino::core::mcp
