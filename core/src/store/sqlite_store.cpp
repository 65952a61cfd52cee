#include "krino/core/store/sqlite_store.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/utc_time.hpp"
#include "krino/core/store/migrations.hpp"

#include <string>

namespace krino::core::store {

namespace {

constexpr std::string_view kMigrationTable = R"sql(
CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at TEXT NOT NULL
))sql";

int highest_applied(SqliteConnection& connection) {
  SqliteStatement query = connection.prepare("SELECT COALESCE(MAX(version), 0) FROM schema_migrations");
  query.step();
  return static_cast<int>(query.integer(0));
}

}  // namespace

SqliteStore::SqliteStore(const std::filesystem::path& path) : connection_(path.string()) {
  // A wait instead of SQLITE_BUSY when another process (a second `krino serve` by mistake, a
  // backup) holds the lock for a moment.
  sqlite3_busy_timeout(connection_.handle(), 5000);
  connection_.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;");
  apply_migrations();
}

int SqliteStore::schema_version() {
  const std::lock_guard<std::mutex> lock(mutex_);
  return highest_applied(connection_);
}

void SqliteStore::apply_migrations() {
  connection_.execute(kMigrationTable);
  const int applied = highest_applied(connection_);
  const int known = migrations().empty() ? 0 : migrations().back().version;
  if (applied > known)
    throw runtime_error(connection_.path() + ": the database is at schema version " + std::to_string(applied) +
                        ", newer than this krino knows (" + std::to_string(known) + "); use a newer krino");
  for (const Migration& migration : migrations()) {
    if (migration.version <= applied) continue;
    // IMMEDIATE: take the write lock first, so two servers starting together apply each
    // migration once (the second finds it recorded).
    connection_.execute("BEGIN IMMEDIATE");
    try {
      if (highest_applied(connection_) >= migration.version) {
        connection_.execute("COMMIT");
        continue;
      }
      connection_.execute(migration.sqlite_sql);
      SqliteStatement record = connection_.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)");
      record.bind(1, static_cast<std::int64_t>(migration.version)).bind(2, migration.name).bind(3, utc_timestamp_now());
      record.step();
      connection_.execute("COMMIT");
    } catch (...) {
      sqlite3_exec(connection_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }
}

}  // namespace krino::core::store
