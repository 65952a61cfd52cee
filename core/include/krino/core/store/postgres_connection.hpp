#pragma once
// A thin owner of one libpq connection: parameterised statements only (values never become SQL
// text), every failure a KrinoError with PostgreSQL's message, and the connection string never in
// an error (it may hold a password).
#include <libpq-fe.h>

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
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
  const std::vector<std::optional<std::string>>& values() const { return values_; }
  int size() const { return static_cast<int>(values_.size()); }
  void clear() { values_.clear(); }

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
  PGresult* raw() const { return result_.get(); }

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
  // Runs `copy` ("COPY t (columns) FROM STDIN") and sends it `rows`, in COPY's text format.
  void copy_in(std::string_view copy, std::string_view rows);
  // "host:port/database", for messages.
  const std::string& where() const { return where_; }
  // Connects again when the connection was lost (the database restarted, a network cut), so the
  // next caller gets a working one; what failed has already reported its error.
  void reconnect_if_lost();

 private:
  void apply_session_settings();

  PGconn* connection_ = nullptr;
  std::string where_;
};

// Many rows in one COPY ... FROM STDIN, sent every `rows_per_statement` rows and by flush(). COPY
// skips what an INSERT costs per statement (parsing, planning, a parameter per value), which is most
// of the work for small rows: what makes a batch of items cheap.
class PgBatchInsert {
 public:
  // `target` is "table (columns...)"; each row has `columns` values.
  PgBatchInsert(PgConnection& connection, std::string target, int columns, int rows_per_statement = 5000);
  // Starts a row: append exactly `columns` values to what it returns.
  PgParams& row();
  // Sends the rows not sent yet.
  void flush();

 private:
  PgConnection& connection_;
  std::string copy_;  // "COPY <target> FROM STDIN"
  int columns_;
  int rows_per_statement_;
  int pending_ = 0;
  PgParams params_;
};

// A few connections, each lent to one caller at a time. PostgreSQL serves a connection with one
// backend process, so a single connection would hold the server to one core of the database.
class PgPool {
 public:
  // Opens `size` connections now (so a wrong URI fails at start, not at the first request).
  PgPool(const std::string& conninfo, std::size_t size);

  // A connection for the lease's lifetime; returned to the pool when it ends.
  class Lease {
   public:
    Lease(PgPool& pool, std::unique_ptr<PgConnection> connection) : pool_(&pool), connection_(std::move(connection)) {}
    Lease(Lease&& other) noexcept = default;
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    PgConnection& operator*() const { return *connection_; }

   private:
    PgPool* pool_;
    std::unique_ptr<PgConnection> connection_;
  };

  // Waits until a connection is free.
  Lease acquire();

 private:
  std::mutex mutex_;
  std::condition_variable freed_;
  std::vector<std::unique_ptr<PgConnection>> idle_;
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
