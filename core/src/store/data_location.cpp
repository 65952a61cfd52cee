#include "krino/core/store/data_location.hpp"

#include "krino/core/common/error.hpp"

#include <cstdlib>
#include <system_error>

namespace krino::core::store {

std::filesystem::path default_data_dir() {
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg != nullptr && *xdg == '/') return std::filesystem::path(xdg) / "krino";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') return std::filesystem::path(home) / ".local/share/krino";
  throw usage_error("no data directory: set --data-dir (neither XDG_DATA_HOME nor HOME is set)");
}

std::string database_location(const std::string& database, const std::string& data_dir) {
  if (!database.empty()) return database;
  const std::filesystem::path dir = data_dir.empty() ? default_data_dir() : std::filesystem::path(data_dir);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw runtime_error("cannot create the data directory " + dir.string() + ": " + ec.message());
  return (dir / "krino.db").string();
}

}  // namespace krino::core::store
