#pragma once
// The results server's schema, as numbered migrations. Each is applied once, in order, at start-up,
// inside a transaction, and recorded in `schema_migrations`. A migration only adds (tables,
// columns, indexes): nothing a user stored is ever dropped or rewritten. The two backends get the
// same tables and columns with each backend's types (ids are `uuid` in PostgreSQL and text in
// SQLite; times are ISO 8601 UTC text in SQLite and `timestamptz` in PostgreSQL;
// scores are 8-byte doubles in both, so a score comes back bit for bit).
#include <span>
#include <string_view>

namespace krino::core::store {

struct Migration {
  int version = 0;
  std::string_view name;
  std::string_view sqlite_sql;
  std::string_view postgres_sql;
};

// Every migration, by increasing version, starting at 1 with no gaps.
std::span<const Migration> migrations();

}  // namespace krino::core::store
