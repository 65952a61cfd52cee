#pragma once
// A thin owner of one SQLite connection and its prepared statements: every failure becomes a
// KrinoError naming the database file and what SQLite said, and nothing leaks on an exception.
#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace krino::core::store {

class SqliteStatement;

class SqliteConnection {
 public:
  // Opens (creating when absent) the database file `path`.
  explicit SqliteConnection(const std::string& path);
  ~SqliteConnection();
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  // Runs one or more statements that return no rows.
  void execute(std::string_view sql);
  SqliteStatement prepare(std::string_view sql);
  const std::string& path() const { return path_; }
  sqlite3* handle() { return db_; }

  // "<path>: <what>: <SQLite's message>".
  [[noreturn]] void fail(std::string_view what) const;

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
};

class SqliteStatement {
 public:
  SqliteStatement(SqliteConnection& connection, sqlite3_stmt* statement) : connection_(&connection), statement_(statement) {}
  ~SqliteStatement();
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  SqliteStatement& operator=(SqliteStatement&&) = delete;

  // Parameters are numbered from 1, as in SQL's `?1`.
  SqliteStatement& bind(int index, std::string_view text);
  SqliteStatement& bind(int index, std::int64_t value);
  SqliteStatement& bind(int index, double value);
  SqliteStatement& bind_null(int index);

  // Advances to the next row: true while there is one.
  bool step();
  // Resets for another execution with new parameters.
  void reset();

  std::int64_t integer(int column) const { return sqlite3_column_int64(statement_, column); }
  double real(int column) const { return sqlite3_column_double(statement_, column); }
  bool is_null(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }
  std::string_view text(int column) const;

 private:
  SqliteConnection* connection_;
  sqlite3_stmt* statement_;
};

}  // namespace krino::core::store
