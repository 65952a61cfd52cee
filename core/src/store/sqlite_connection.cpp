#include "krino/core/store/sqlite_connection.hpp"

#include "krino/core/common/error.hpp"

#include <utility>

namespace krino::core::store {

SqliteConnection::SqliteConnection(const std::string& path) : path_(path) {
  // URI: so that an ATTACH may ask for a file read only ("file:...?mode=ro", a run's text index);
  // a path not starting with "file:" is read as a plain path, as without it.
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI;
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw runtime_error(path + ": cannot open the database: " + message);
  }
  sqlite3_extended_result_codes(db_, 1);
}

SqliteConnection::~SqliteConnection() { sqlite3_close_v2(db_); }

void SqliteConnection::fail(std::string_view what) const {
  std::string message = path_;
  message.append(": ").append(what).append(": ").append(sqlite3_errmsg(db_));
  throw runtime_error(message);
}

void SqliteConnection::execute(std::string_view sql) {
  const std::string text(sql);
  char* error = nullptr;
  if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = path_;
    message.append(": ").append(error != nullptr ? error : "SQL failed");
    sqlite3_free(error);
    throw runtime_error(message);
  }
}

SqliteStatement SqliteConnection::prepare(std::string_view sql) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &statement, nullptr) != SQLITE_OK)
    fail("cannot prepare a statement");
  return SqliteStatement(*this, statement);
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(statement_); }

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : connection_(other.connection_), statement_(std::exchange(other.statement_, nullptr)) {}

SqliteStatement& SqliteStatement::bind(int index, std::string_view text) {
  if (sqlite3_bind_text64(statement_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8) != SQLITE_OK)
    connection_->fail("cannot bind a parameter");
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value) {
  if (sqlite3_bind_int64(statement_, index, value) != SQLITE_OK) connection_->fail("cannot bind a parameter");
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value) {
  if (sqlite3_bind_double(statement_, index, value) != SQLITE_OK) connection_->fail("cannot bind a parameter");
  return *this;
}

SqliteStatement& SqliteStatement::bind_null(int index) {
  if (sqlite3_bind_null(statement_, index) != SQLITE_OK) connection_->fail("cannot bind a parameter");
  return *this;
}

bool SqliteStatement::step() {
  const int status = sqlite3_step(statement_);
  if (status == SQLITE_ROW) return true;
  if (status == SQLITE_DONE) return false;
  connection_->fail("a statement failed");
}

void SqliteStatement::reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

std::string_view SqliteStatement::text(int column) const {
  const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(statement_, column));
  return data == nullptr ? std::string_view() : std::string_view(data, static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)));
}

std::optional<std::string> SqliteStatement::optional_text(int column) const {
  if (is_null(column)) return std::nullopt;
  return std::string(text(column));
}

std::optional<std::int64_t> SqliteStatement::optional_integer(int column) const {
  if (is_null(column)) return std::nullopt;
  return integer(column);
}

std::optional<double> SqliteStatement::optional_real(int column) const {
  if (is_null(column)) return std::nullopt;
  return real(column);
}

SqliteTransaction::SqliteTransaction(SqliteConnection& connection) : connection_(connection) {
  connection_.execute("BEGIN IMMEDIATE");
}

SqliteTransaction::~SqliteTransaction() {
  if (open_) sqlite3_exec(connection_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void SqliteTransaction::commit() {
  connection_.execute("COMMIT");
  open_ = false;
}

}  // namespace krino::core::store
