// An ended run's text search index in a SQLite store: an FTS5 table of its own with the trigram
// tokenizer, keyed by the item's position (rowid = seq). Contentless (the documents stay only in
// `items`), no column sizes, and detail=none (rowids only, no positions): a third the size of a
// detail=full index at a million items, and a search asks for the AND of its words' trigrams,
// which the LIKE predicate then confirms (sqlite_ui_reads.cpp). Built a chunk of items per
// transaction on a connection of its own, so requests never wait for it.
#include "krino/core/store/sqlite_store.hpp"
#include "text_index_sql.hpp"

namespace krino::core::store {

std::vector<std::string> SqliteStore::runs_awaiting_text_index(std::size_t limit) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare(
      "SELECT id FROM runs WHERE text_index <> 'ready' AND status <> 'RUNNING' ORDER BY completed_at, id LIMIT ?1");
  query.bind(1, static_cast<std::int64_t>(limit));
  std::vector<std::string> out;
  while (query.step()) out.emplace_back(query.text(0));
  return out;
}

bool SqliteStore::build_text_index(const std::string& run_id, std::int64_t chunk, const std::function<bool()>& keep_going) {
  const std::string table = text_index::table_name(run_id);
  // A connection of its own, without the store's lock: in WAL mode, requests read on while a chunk
  // is written, and a writer (a batch of another run) waits at most one chunk (busy timeout).
  SqliteConnection builder(connection_.path());
  sqlite3_busy_timeout(builder.handle(), 30000);
  builder.execute("PRAGMA synchronous=NORMAL");
  std::int64_t count = 0;
  {
    SqliteTransaction transaction(builder);
    {
      SqliteStatement run = builder.prepare("SELECT item_count FROM runs WHERE id = ?1 AND status <> 'RUNNING'");
      run.bind(1, run_id);
      if (!run.step()) return false;
      count = run.integer(0);
    }  // finished before the table changes: SQLite drops no table a statement is still reading
    builder.execute("DROP TABLE IF EXISTS " + table);  // what a build cut off by a restart left
    builder.execute("CREATE VIRTUAL TABLE " + table + " USING fts5(document, content='', columnsize=0, detail=none, tokenize='trigram')");
    SqliteStatement building = builder.prepare("UPDATE runs SET text_index = 'building' WHERE id = ?1");
    building.bind(1, run_id);
    building.step();
    transaction.commit();
  }
  for (std::int64_t first = 0; first < count; first += chunk) {
    if (!keep_going()) return false;
    SqliteTransaction transaction(builder);
    {
      // The run may have been deleted between chunks, its index with it.
      SqliteStatement exists = builder.prepare("SELECT 1 FROM runs WHERE id = ?1");
      exists.bind(1, run_id);
      if (!exists.step()) return false;
    }
    SqliteStatement insert = builder.prepare("INSERT INTO " + table +
                                             " (rowid, document) SELECT seq, document FROM items WHERE run_id = ?1 AND seq >= ?2 AND seq < ?3");
    insert.bind(1, run_id).bind(2, first).bind(3, first + chunk);
    insert.step();
    transaction.commit();
  }
  SqliteStatement ready = builder.prepare("UPDATE runs SET text_index = 'ready' WHERE id = ?1");
  ready.bind(1, run_id);
  ready.step();
  return sqlite3_changes(builder.handle()) > 0;
}

void SqliteStore::drop_text_indexes(const std::string& runs_sql, const std::string& key) {
  std::vector<std::string> tables;
  {
    SqliteStatement runs = connection_.prepare("SELECT id FROM runs WHERE id IN (" + runs_sql + ")");
    runs.bind(1, key);
    while (runs.step()) tables.push_back(text_index::table_name(runs.text(0)));
  }
  for (const std::string& table : tables) connection_.execute("DROP TABLE IF EXISTS " + table);
}

}  // namespace krino::core::store
