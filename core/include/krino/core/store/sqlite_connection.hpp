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
  // An empty optional binds NULL.
  template <typename T>
  SqliteStatement& bind(int index, const std::optional<T>& value) {
    return value ? bind(index, *value) : bind_null(index);
  }
  SqliteStatement& bind(int index, const std::string& text) { return bind(index, std::string_view(text)); }

  // Advances to the next row: true while there is one.
  bool step();
  // Resets for another execution with new parameters.
  void reset();

  std::int64_t integer(int column) const { return sqlite3_column_int64(statement_, column); }
  double real(int column) const { return sqlite3_column_double(statement_, column); }
  bool is_null(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }
  std::string_view text(int column) const;
  std::optional<std::string> optional_text(int column) const;
  std::optional<std::int64_t> optional_integer(int column) const;
  std::optional<double> optional_real(int column) const;

 private:
  SqliteConnection* connection_;
  sqlite3_stmt* statement_;
};

// BEGIN IMMEDIATE (the write lock up front, so a transaction never fails half-way on a lock it
// could not upgrade) ... COMMIT; rolled back when left without commit(), an exception included.
class SqliteTransaction {
 public:
  explicit SqliteTransaction(SqliteConnection& connection);
  ~SqliteTransaction();
  SqliteTransaction(const SqliteTransaction&) = delete;
  SqliteTransaction& operator=(const SqliteTransaction&) = delete;
  void commit();

 private:
  SqliteConnection& connection_;
  bool open_ = true;
};

}  // namespace krino::core::store
