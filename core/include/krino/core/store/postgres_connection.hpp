#pragma once
// A thin owner of one libpq connection: parameterised statements only (values never become SQL
// text), every failure a KrinoError with PostgreSQL's message, and the connection string never in
// an error (it may hold a password).
#include <libpq-fe.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core::store {

// One statement's parameters, as text (libpq's text format; NULL for an empty optional).
class PgParams {
 public:
  PgParams& text(std::string_view value);
  PgParams& integer(std::int64_t value);
  PgParams& real(double value);  // the shortest text that reads back as the same double
  PgParams& boolean(bool value);
  PgParams& null();
  template <typename T>
  PgParams& optional(const std::optional<T>& value);

  std::vector<const char*> pointers() const;
  int size() const { return static_cast<int>(values_.size()); }

 private:
  std::vector<std::optional<std::string>> values_;
};

class PgResult {
 public:
  explicit PgResult(PGresult* result) : result_(result, &PQclear) {}
  int rows() const { return PQntuples(result_.get()); }
  bool is_null(int row, int column) const { return PQgetisnull(result_.get(), row, column) != 0; }
  std::string_view text(int row, int column) const;
  std::optional<std::string> optional_text(int row, int column) const;
  std::int64_t integer(int row, int column) const;
  std::optional<std::int64_t> optional_integer(int row, int column) const;
  std::optional<double> optional_real(int row, int column) const;
  bool boolean(int row, int column) const { return text(row, column) == "t"; }

 private:
  std::unique_ptr<PGresult, void (*)(PGresult*)> result_;
};

class PgConnection {
 public:
  // `conninfo` is a libpq connection string or postgresql:// URI.
  explicit PgConnection(const std::string& conninfo);
  ~PgConnection();
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  // Runs `sql` (one statement when there are parameters, several when there are none).
  PgResult execute(std::string_view sql, const PgParams& params = {});
  // "host:port/database", for messages.
  const std::string& where() const { return where_; }

 private:
  PGconn* connection_ = nullptr;
  std::string where_;
};

// BEGIN ... COMMIT, rolled back when left without commit().
class PgTransaction {
 public:
  explicit PgTransaction(PgConnection& connection);
  ~PgTransaction();
  PgTransaction(const PgTransaction&) = delete;
  PgTransaction& operator=(const PgTransaction&) = delete;
  void commit();

 private:
  PgConnection& connection_;
  bool open_ = true;
};

template <typename T>
PgParams& PgParams::optional(const std::optional<T>& value) {
  if (!value) return null();
  if constexpr (std::is_same_v<T, double>) return real(*value);
  else if constexpr (std::is_integral_v<T>) return integer(*value);
  else return text(*value);
}

}  // namespace krino::core::store
