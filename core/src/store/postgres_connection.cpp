#include "krino/core/store/postgres_connection.hpp"

#include "krino/core/common/error.hpp"

#include <krino/json_text.hpp>

#include <algorithm>
#include <charconv>

namespace krino::core::store {

PgParams& PgParams::text(std::string_view value) {
  values_.emplace_back(std::string(value));
  return *this;
}

PgParams& PgParams::integer(std::int64_t value) {
  values_.emplace_back(std::to_string(value));
  return *this;
}

PgParams& PgParams::real(double value) {
  std::string text;
  krino::json::append_double(text, value);  // shortest round trip; PostgreSQL reads it correctly rounded
  values_.emplace_back(std::move(text));
  return *this;
}

PgParams& PgParams::boolean(bool value) {
  values_.emplace_back(value ? "true" : "false");
  return *this;
}

PgParams& PgParams::null() {
  values_.emplace_back(std::nullopt);
  return *this;
}

std::vector<const char*> PgParams::pointers() const {
  std::vector<const char*> out;
  out.reserve(values_.size());
  for (const auto& value : values_) out.push_back(value ? value->c_str() : nullptr);
  return out;
}

std::string_view PgResult::text(int row, int column) const {
  return std::string_view(PQgetvalue(result_.get(), row, column), static_cast<std::size_t>(PQgetlength(result_.get(), row, column)));
}

std::optional<std::string> PgResult::optional_text(int row, int column) const {
  if (is_null(row, column)) return std::nullopt;
  return std::string(text(row, column));
}

std::int64_t PgResult::integer(int row, int column) const {
  const std::string_view value = text(row, column);
  std::int64_t out = 0;
  std::from_chars(value.data(), value.data() + value.size(), out);
  return out;
}

std::optional<std::int64_t> PgResult::optional_integer(int row, int column) const {
  if (is_null(row, column)) return std::nullopt;
  return integer(row, column);
}

std::optional<double> PgResult::optional_real(int row, int column) const {
  if (is_null(row, column)) return std::nullopt;
  // float8 out is the shortest exact form (extra_float_digits = 1, PostgreSQL 12 and later).
  const std::string_view value = text(row, column);
  double out = 0.0;
  std::from_chars(value.data(), value.data() + value.size(), out);
  return out;
}

PgConnection::PgConnection(const std::string& conninfo) {
  connection_ = PQconnectdb(conninfo.c_str());
  if (connection_ != nullptr && PQstatus(connection_) == CONNECTION_OK) {
    where_ = std::string(PQhost(connection_)) + ":" + PQport(connection_) + "/" + PQdb(connection_);
    apply_session_settings();
    return;
  }
  const std::string message = connection_ != nullptr ? PQerrorMessage(connection_) : "out of memory";
  PQfinish(connection_);
  connection_ = nullptr;
  throw runtime_error("cannot connect to PostgreSQL: " + message);
}

PgConnection::~PgConnection() { PQfinish(connection_); }

void PgConnection::apply_session_settings() {
  // Times in UTC, doubles in their shortest exact form and no NOTICE chatter on stderr, whatever
  // the server's defaults are.
  execute("SET TimeZone = 'UTC'; SET extra_float_digits = 1; SET client_encoding = 'UTF8'; SET client_min_messages = warning");
}

void PgConnection::reconnect_if_lost() {
  if (PQstatus(connection_) == CONNECTION_OK) return;
  PQreset(connection_);
  if (PQstatus(connection_) == CONNECTION_OK) apply_session_settings();
}

PgResult PgConnection::execute(std::string_view sql, const PgParams& params) {
  const std::string statement(sql);
  PGresult* raw = nullptr;
  if (params.size() == 0) {
    raw = PQexec(connection_, statement.c_str());
  } else {
    const std::vector<const char*> values = params.pointers();
    raw = PQexecParams(connection_, statement.c_str(), params.size(), nullptr, values.data(), nullptr, nullptr, 0);
  }
  PgResult result(raw);
  const ExecStatusType status = PQresultStatus(raw);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    std::string message = PQresultErrorMessage(raw);
    if (message.empty()) message = PQerrorMessage(connection_);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    throw runtime_error("PostgreSQL " + where_ + ": " + message);
  }
  return result;
}

namespace {

// A value in COPY's text format: \N for NULL; backslash, newline, carriage return and tab escaped
// (every other byte, UTF-8 included, goes as it is).
void append_copy_value(std::string& out, const std::optional<std::string>& value) {
  if (!value) {
    out += "\\N";
    return;
  }
  for (const char c : *value) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
}

}  // namespace

void PgConnection::copy_in(std::string_view copy, std::string_view rows) {
  auto fail = [&](std::string message) {
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    throw runtime_error("PostgreSQL " + where_ + ": " + message);
  };
  PgResult started(PQexec(connection_, std::string(copy).c_str()));
  if (PQresultStatus(started.raw()) != PGRES_COPY_IN) fail(PQerrorMessage(connection_));
  // libpq takes an int length: send in pieces well under 2 GiB.
  constexpr std::size_t kPiece = 1u << 20;
  for (std::size_t at = 0; at < rows.size(); at += kPiece) {
    const std::size_t length = std::min(kPiece, rows.size() - at);
    if (PQputCopyData(connection_, rows.data() + at, static_cast<int>(length)) != 1) fail(PQerrorMessage(connection_));
  }
  if (PQputCopyEnd(connection_, nullptr) != 1) fail(PQerrorMessage(connection_));
  std::optional<std::string> error;
  while (PGresult* raw = PQgetResult(connection_)) {
    PgResult result(raw);
    if (PQresultStatus(raw) != PGRES_COMMAND_OK && !error) error = PQresultErrorMessage(raw);
  }
  if (error) fail(*error);
}

PgBatchInsert::PgBatchInsert(PgConnection& connection, std::string target, int columns, int rows_per_statement)
    : connection_(connection), copy_("COPY " + target + " FROM STDIN"), columns_(columns), rows_per_statement_(rows_per_statement) {}

PgParams& PgBatchInsert::row() {
  if (pending_ == rows_per_statement_) flush();
  ++pending_;
  return params_;
}

void PgBatchInsert::flush() {
  if (pending_ == 0) return;
  std::string rows;
  const auto& values = params_.values();
  for (std::size_t i = 0; i < values.size(); ++i) {
    append_copy_value(rows, values[i]);
    rows += (i + 1) % static_cast<std::size_t>(columns_) == 0 ? '\n' : '\t';
  }
  connection_.copy_in(copy_, rows);
  params_.clear();
  pending_ = 0;
}

PgPool::PgPool(const std::string& conninfo, std::size_t size) {
  for (std::size_t i = 0; i < std::max<std::size_t>(size, 1); ++i) idle_.push_back(std::make_unique<PgConnection>(conninfo));
}

PgPool::Lease PgPool::acquire() {
  std::unique_lock<std::mutex> lock(mutex_);
  freed_.wait(lock, [this] { return !idle_.empty(); });
  std::unique_ptr<PgConnection> connection = std::move(idle_.back());
  idle_.pop_back();
  return Lease(*this, std::move(connection));
}

PgPool::Lease::~Lease() {
  if (!connection_) return;  // moved from
  try {
    connection_->reconnect_if_lost();
  } catch (...) {
    // Still down: the next caller's statement reports it, and the lease after that tries again.
  }
  {
    const std::lock_guard<std::mutex> lock(pool_->mutex_);
    pool_->idle_.push_back(std::move(connection_));
  }
  pool_->freed_.notify_one();
}

PgTransaction::PgTransaction(PgConnection& connection) : connection_(connection) { connection_.execute("BEGIN"); }

PgTransaction::~PgTransaction() {
  if (!open_) return;
  try {
    connection_.execute("ROLLBACK");
  } catch (...) {
    // The connection is gone: the server rolls back for us.
  }
}

void PgTransaction::commit() {
  connection_.execute("COMMIT");
  open_ = false;
}

}  // namespace krino::core::store
