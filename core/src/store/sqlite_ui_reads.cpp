// What the web UI reads from a SQLite store: filtered item pages, evaluator distributions, the
// log of gate verdicts.
#include "krino/core/common/utc_time.hpp"
#include "krino/core/store/sqlite_store.hpp"
#include "text_index_sql.hpp"
#include "ui_read_text.hpp"

#include <limits>
#include <string>

namespace krino::core::store {

namespace {
// A sum that overflowed is kept as NULL (SQLite keeps no NaN) and read back as not a number.
constexpr double kSqliteUnsummed = std::numeric_limits<double>::quiet_NaN();

// A run's text index file (sqlite_text_index.cpp) attached to the store's connection as
// `text_index` for one query, and detached after it (its statements finished first: declared
// after this). Read only: a missing file is an error, never an empty database made in its place.
class AttachedRunTextIndex {
 public:
  AttachedRunTextIndex(SqliteConnection& connection, const std::filesystem::path& file) : connection_(connection) {
    std::string uri = "file:";
    for (const char c : file.string()) {  // the characters a URI's path may not hold as they are
      if (c == '%' || c == '?' || c == '#') {
        static const char* const hex = "0123456789ABCDEF";
        uri += '%';
        uri += hex[static_cast<unsigned char>(c) >> 4];
        uri += hex[static_cast<unsigned char>(c) & 15];
      } else {
        uri += c;
      }
    }
    uri += "?mode=ro";
    SqliteStatement attach = connection_.prepare("ATTACH DATABASE ?1 AS text_index");
    attach.bind(1, uri);
    attach.step();
  }
  ~AttachedRunTextIndex() { sqlite3_exec(connection_.handle(), "DETACH DATABASE text_index", nullptr, nullptr, nullptr); }
  AttachedRunTextIndex(const AttachedRunTextIndex&) = delete;
  AttachedRunTextIndex& operator=(const AttachedRunTextIndex&) = delete;

 private:
  SqliteConnection& connection_;
};
}  // namespace

std::optional<FilteredItemPage> SqliteStore::filtered_items(const Scope& scope, const std::string& run_id, const ItemFilter& filter) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement run = connection_.prepare("SELECT item_count, text_index FROM runs WHERE id = ?1 AND " + visible("tenant_id", 2));
  run.bind(1, run_id).bind(2, scope.tenant);
  if (!run.step()) return std::nullopt;
  const std::int64_t last_seq = run.integer(0) - 1;
  // A search the run's ready index can narrow reads only the index's candidates, in order, from
  // after_seq to the run's end; each is confirmed by the same predicates as without the index.
  std::string trigrams = parse_text_index(run.text(1)) == TextIndexState::ready ? text_index::fts_trigram_query(filter.words) : std::string();
  run.reset();  // no statement may be reading while a database is attached
  std::optional<AttachedRunTextIndex> attached;
  if (!trigrams.empty()) {
    const std::filesystem::path file = text_index_file(run_id);
    // Gone (removed by hand): searched by windows, and built again at the next start.
    if (std::filesystem::exists(file)) attached.emplace(connection_, file);
    else trigrams.clear();
  }
  // The index table, under the alias its MATCH and rowid are named by.
  const std::string index = trigrams.empty() ? std::string() : "run_text";
  const std::int64_t window_end = !index.empty() || filter.window >= last_seq - filter.after_seq ? last_seq : filter.after_seq + filter.window;

  // ?1 run, ?2 after, ?3 window end, ?4 limit + 1, ?5 evaluator, then the words from ?6, then the
  // index's query. With an evaluator the rows come from its verdicts (a failed one's partial index
  // when the filter asks for failures), joined to their items; else from the items (a partial index
  // for failed and errored ones). With the index, its candidates lead (CROSS JOIN keeps them the
  // outer loop, in position order) and each is looked up by position.
  const char* join = index.empty() ? " JOIN " : " CROSS JOIN ";
  std::string sql = "SELECT i.id, i.seq, i.success, i.document FROM ";
  if (!index.empty()) sql.append("text_index.item_text AS ").append(index).append(join);
  if (filter.evaluator) {
    sql.append("eval_results e").append(join).append(
        "items i ON i.run_id = e.run_id AND i.seq = e.seq WHERE e.run_id = ?1 AND e.name = ?5 AND e.seq > ?2 AND e.seq <= ?3");
    if (filter.evaluator_passed) sql += *filter.evaluator_passed ? " AND e.success = 1" : " AND e.success = 0";
  } else {
    sql += "items i WHERE i.run_id = ?1 AND i.seq > ?2 AND i.seq <= ?3 AND ?5 IS NULL";
  }
  switch (filter.status) {
    case ItemStatusFilter::all: break;
    case ItemStatusFilter::passed: sql += " AND i.success = 1"; break;
    case ItemStatusFilter::failed: sql += " AND i.success = 0"; break;
    case ItemStatusFilter::error: sql += " AND i.has_error = 1"; break;
  }
  for (std::size_t w = 0; w < filter.words.size(); ++w) sql.append(" AND i.document LIKE ?").append(std::to_string(w + 6)).append(" ESCAPE '\\'");
  const std::string trigram_param = std::to_string(filter.words.size() + 6);
  if (!index.empty()) {
    sql.append(" AND ").append(index).append(".item_text MATCH ?").append(trigram_param);
    sql.append(" AND ").append(index).append(".rowid > ?2 AND i.seq = ").append(index).append(".rowid");
    if (filter.evaluator) sql.append(" AND e.seq = ").append(index).append(".rowid");  // each looked up by position
    sql.append(" ORDER BY ").append(index).append(".rowid LIMIT ?4");
  } else {
    sql += filter.evaluator ? " ORDER BY e.seq LIMIT ?4" : " ORDER BY i.seq LIMIT ?4";
  }
  SqliteStatement query = connection_.prepare(sql);
  query.bind(1, run_id).bind(2, filter.after_seq).bind(3, window_end).bind(4, static_cast<std::int64_t>(filter.limit) + 1);
  query.bind(5, filter.evaluator);
  for (std::size_t w = 0; w < filter.words.size(); ++w) query.bind(static_cast<int>(w + 6), ui_text::contains_pattern(filter.words[w]));
  if (!index.empty()) query.bind(static_cast<int>(filter.words.size() + 6), trigrams);

  FilteredItemPage page;
  std::size_t rows = 0;
  while (query.step()) {
    ++rows;
    const std::int64_t seq = query.integer(1);
    if (!page.items.empty() && page.items.back().seq == seq) continue;  // two verdicts of one name on one item
    if (page.items.size() == filter.limit) {
      page.next_after = page.items.back().seq;
      return page;
    }
    page.items.push_back(StoredItem{std::string(query.text(0)), seq, query.integer(2) != 0, std::string(query.text(3))});
  }
  if (rows == filter.limit + 1 && !page.items.empty()) page.next_after = page.items.back().seq;
  else if (window_end < last_seq) page.next_after = window_end;  // the window ran out before the run did
  return page;
}

void SqliteStore::scan_verdicts(const Scope& scope, const std::string& run_id, const std::function<void(const ScoredItem&)>& visit) {
  std::int64_t count = 0;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    SqliteStatement run = connection_.prepare("SELECT item_count FROM runs WHERE id = ?1 AND " + visible("tenant_id", 2));
    run.bind(1, run_id).bind(2, scope.tenant);
    if (!run.step()) return;
    count = run.integer(0);
  }
  // A chunk of positions at a time, the lock released between chunks, as scan_items.
  std::vector<ScoredItem> chunk;
  for (std::int64_t first = 0; first < count; first += kScanChunk) {
    chunk.clear();
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      SqliteStatement results = connection_.prepare(
          "SELECT seq, name, score, threshold, success FROM eval_results WHERE run_id = ?1 AND seq >= ?2 AND seq < ?3 ORDER BY seq, position");
      results.bind(1, run_id).bind(2, first).bind(3, first + kScanChunk);
      while (results.step()) {
        const std::int64_t seq = results.integer(0);
        if (chunk.empty() || chunk.back().seq != seq) chunk.push_back(ScoredItem{seq, std::nullopt, false, {}});
        chunk.back().results.push_back(
            NewResult{std::string(results.text(1)), results.optional_real(2), results.optional_real(3), results.integer(4) != 0});
      }
    }
    for (const ScoredItem& item : chunk) visit(item);
  }
}

std::optional<std::vector<EvaluatorStats>> SqliteStore::kept_evaluator_stats(const std::string& run_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement kept = connection_.prepare(
      "SELECT name, count, passed, scored, score_sum, score_sum_squares, score_min, score_max, buckets FROM run_evaluator_stats "
      "WHERE run_id = ?1 ORDER BY position");
  kept.bind(1, run_id);
  std::optional<std::vector<EvaluatorStats>> out;
  while (kept.step()) {
    if (!out) out.emplace();
    out->push_back(EvaluatorStats{std::string(kept.text(0)), kept.integer(1), kept.integer(2), kept.integer(3), kept.optional_real(4).value_or(kSqliteUnsummed), kept.optional_real(5).value_or(kSqliteUnsummed),
                                  kept.optional_real(6), kept.optional_real(7), ui_text::parse_buckets(kept.text(8))});
  }
  return out;
}

void SqliteStore::keep_evaluator_stats(const std::string& run_id, const std::vector<EvaluatorStats>& stats) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  // Two readers may sum the same run at once: the same numbers, kept once.
  SqliteStatement insert = connection_.prepare(
      "INSERT OR IGNORE INTO run_evaluator_stats (run_id, position, name, count, passed, scored, score_sum, score_sum_squares, score_min, "
      "score_max, buckets) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  for (std::size_t i = 0; i < stats.size(); ++i) {
    const EvaluatorStats& e = stats[i];
    insert.bind(1, run_id).bind(2, static_cast<std::int64_t>(i)).bind(3, e.name).bind(4, e.count).bind(5, e.passed).bind(6, e.scored);
    insert.bind(7, e.score_sum).bind(8, e.score_sum_squares).bind(9, e.score_min).bind(10, e.score_max).bind(11, ui_text::buckets_text(e.buckets));
    insert.step();
    insert.reset();
  }
  transaction.commit();
}

void SqliteStore::record_gate(const std::string& experiment_id, const std::string& candidate_run_id,
                              const std::optional<std::string>& baseline_run_id, std::string_view status,
                              std::optional<double> pass_rate_delta) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement insert = connection_.prepare(
      "INSERT INTO gate_verdicts (id, experiment_id, tenant_id, candidate_run_id, baseline_run_id, status, pass_rate_delta, created_at) "
      "SELECT ?1, ?2, tenant_id, ?3, ?4, ?5, ?6, ?7 FROM runs WHERE id = ?3");
  insert.bind(1, to_text(ids_.next())).bind(2, experiment_id).bind(3, candidate_run_id).bind(4, baseline_run_id).bind(5, status);
  insert.bind(6, pass_rate_delta).bind(7, utc_timestamp_now());
  insert.step();
}

std::vector<GateRecord> SqliteStore::gates(const Scope& scope, const GateQuery& query) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement select = connection_.prepare(
      "SELECT g.id, g.experiment_id, e.name, p.name, g.candidate_run_id, g.baseline_run_id, g.status, g.pass_rate_delta, g.created_at "
      "FROM gate_verdicts g JOIN experiments e ON e.id = g.experiment_id JOIN projects p ON p.id = e.project_id WHERE " +
      visible("g.tenant_id", 1) + " AND (?2 IS NULL OR g.status = ?2) AND (?3 IS NULL OR g.experiment_id = ?3) ORDER BY g.id DESC LIMIT ?4");
  select.bind(1, scope.tenant).bind(2, query.status).bind(3, query.experiment_id).bind(4, static_cast<std::int64_t>(query.limit));
  std::vector<GateRecord> out;
  while (select.step()) {
    out.push_back(GateRecord{std::string(select.text(0)), std::string(select.text(1)), std::string(select.text(2)), std::string(select.text(3)),
                             std::string(select.text(4)), select.optional_text(5), std::string(select.text(6)), select.optional_real(7),
                             std::string(select.text(8))});
  }
  return out;
}

}  // namespace krino::core::store
