#pragma once
// Where krino keeps its results when the user names no database: one place shared by `krino
// serve` and `krino mcp`, so the runs an agent starts show up on the server.
#include <filesystem>
#include <string>

namespace krino::core::store {

// $XDG_DATA_HOME/krino (when absolute), else ~/.local/share/krino. Throws a usage error when
// neither variable is set.
std::filesystem::path default_data_dir();

// The database that --database and --data-dir name: `database` when given (a SQLite path or a
// postgresql:// URI), else krino.db in `data_dir` (default_data_dir() when empty), whose directory
// is then created. Throws a runtime error naming the directory when it cannot be created.
std::string database_location(const std::string& database, const std::string& data_dir);

}  // namespace krino::core::store
