// An ended run's text search index in a PostgreSQL store: a table of its own holding a copy of the
// run's documents (position, document under the "C" collation, as the search compares them) with a
// pg_trgm GIN index over its lowered text. A copy, because an index on `items` itself would be kept up
// at ingestion (six times its cost, measured) and a GIN index built once over a whole table is
// several times faster than one grown row by row. Built in one transaction, which holds an
// advisory lock: replicas sharing the database never build the same run twice, and a replica
// that dies leaves nothing half built (the run stays awaiting and is built again).
#include "krino/core/store/postgres_store.hpp"
#include "text_index_sql.hpp"

namespace krino::core::store {

std::vector<std::string> PostgresStore::runs_awaiting_text_index(std::size_t limit) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult rows = connection.execute(
      "SELECT id FROM runs WHERE text_index <> 'ready' AND status <> 'RUNNING' ORDER BY completed_at, id LIMIT $1",
      PgParams().integer(static_cast<std::int64_t>(limit)));
  std::vector<std::string> out;
  for (int row = 0; row < rows.rows(); ++row) out.emplace_back(rows.text(row, 0));
  return out;
}

bool PostgresStore::build_text_index(const std::string& run_id, std::int64_t chunk, const std::function<bool()>& keep_going) {
  const std::string table = text_index::table_name(run_id);
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult run = connection.execute("SELECT item_count FROM runs WHERE id = $1 AND status <> 'RUNNING'", PgParams().text(run_id));
  if (run.rows() == 0) return false;
  const std::int64_t count = run.integer(0, 0);
  // Here rather than in a migration: a database role that may not create it still runs krino,
  // with searches unindexed (the indexer logs why).
  connection.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm");
  connection.execute("UPDATE runs SET text_index = 'building' WHERE id = $1 AND text_index <> 'ready'", PgParams().text(run_id));

  PgTransaction transaction(connection);
  if (!connection.execute("SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0))", PgParams().text(table)).boolean(0, 0)) return false;
  connection.execute("DROP TABLE IF EXISTS " + table);
  connection.execute("CREATE TABLE " + table + " (seq bigint PRIMARY KEY, document text COLLATE \"C\" NOT NULL)");
  for (std::int64_t first = 0; first < count; first += chunk) {
    if (!keep_going()) return false;  // rolled back
    connection.execute("INSERT INTO " + table + " (seq, document) SELECT seq, document FROM items WHERE run_id = $1 AND seq >= $2 AND seq < $3",
                       PgParams().text(run_id).integer(first).integer(first + chunk));
  }
  if (!keep_going()) return false;
  // Over the text lowered under "C" (ASCII letters only), as ILIKE under "C" compares it: pg_trgm
  // folds case again under the database's locale, but two texts that differ only in ASCII case
  // are the same text by then, so no match of the ILIKE is ever missing from the index's candidates.
  connection.execute("CREATE INDEX " + table + "_trigrams ON " + table + " USING gin (lower(document) gin_trgm_ops)");
  connection.execute("ANALYZE " + table);  // so the planner weighs the GIN index against reading in order
  // No row: the run was deleted meanwhile (its delete waited for nothing of ours): roll back.
  if (connection.execute("UPDATE runs SET text_index = 'ready' WHERE id = $1 RETURNING 1", PgParams().text(run_id)).rows() == 0) return false;
  transaction.commit();
  return true;
}

void PostgresStore::drop_text_indexes(PgConnection& connection, const std::string& runs_sql, const std::string& key) {
  const PgResult runs = connection.execute("SELECT id FROM runs WHERE id IN (" + runs_sql + ")", PgParams().text(key));
  for (int row = 0; row < runs.rows(); ++row) connection.execute("DROP TABLE IF EXISTS " + text_index::table_name(runs.text(row, 0)));
}

}  // namespace krino::core::store
