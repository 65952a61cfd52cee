#include "krino/core/store/open_store.hpp"

#include "krino/core/store/postgres_store.hpp"
#include "krino/core/store/sqlite_store.hpp"

namespace krino::core::store {

bool is_postgres_uri(const std::string& database) {
  return database.rfind("postgresql://", 0) == 0 || database.rfind("postgres://", 0) == 0;
}

std::unique_ptr<Store> open_store(const std::string& database) {
  if (is_postgres_uri(database)) return std::make_unique<PostgresStore>(database);
  return std::make_unique<SqliteStore>(database);
}

}  // namespace krino::core::store
