#include "krino/core/mcp/tool_services.hpp"

#include "krino/core/mcp/tool_registry.hpp"
#include "krino/core/store/data_location.hpp"
#include "krino/core/store/open_store.hpp"

namespace krino::core::mcp {

ToolServices::ToolServices(const PluginRegistry& plugins, std::string database, std::string data_dir, krino_log_level log_level)
    : plugins_(plugins), database_(std::move(database)), data_dir_(std::move(data_dir)), log_level_(log_level) {}

ToolServices::~ToolServices() = default;

store::Store& ToolServices::store() {
  std::lock_guard lock(mutex_);
  if (store_) return *store_;
  std::string location;
  try {
    location = store::database_location(database_, data_dir_);
    store_ = store::open_store(location);
  } catch (const std::exception& e) {
    // A URI may hold a password: only a SQLite path is named.
    const std::string shown = store::is_postgres_uri(location) ? std::string("the PostgreSQL database") : location;
    std::string message = "cannot open the results store";
    if (!shown.empty()) message.append(" ").append(shown);
    message.append(": ").append(e.what()).append(" (krino mcp --database FILE or --data-dir DIR chooses it)");
    throw ToolError(message);
  }
  return *store_;
}

}  // namespace krino::core::mcp
