// What the web UI reads from a SQLite store: filtered item pages, evaluator distributions, the
// log of gate verdicts.
#include "krino/core/common/utc_time.hpp"
#include "krino/core/store/sqlite_store.hpp"
#include "ui_read_text.hpp"

#include <string>

namespace krino::core::store {

std::optional<FilteredItemPage> SqliteStore::filtered_items(const Scope& scope, const std::string& run_id, const ItemFilter& filter) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement run = connection_.prepare("SELECT item_count FROM runs WHERE id = ?1 AND " + visible("tenant_id", 2));
  run.bind(1, run_id).bind(2, scope.tenant);
  if (!run.step()) return std::nullopt;
  const std::int64_t last_seq = run.integer(0) - 1;
  const std::int64_t window_end = filter.window >= last_seq - filter.after_seq ? last_seq : filter.after_seq + filter.window;

  // ?1 run, ?2 after, ?3 window end, ?4 limit + 1, ?5 evaluator, then the words from ?6. With an
  // evaluator the rows come from its verdicts (a failed one's partial index when the filter asks
  // for failures), joined to their items; else from the items (a partial index for failed and
  // errored ones).
  std::string sql = "SELECT i.id, i.seq, i.success, i.document FROM ";
  if (filter.evaluator) {
    sql += "eval_results e JOIN items i ON i.run_id = e.run_id AND i.seq = e.seq WHERE e.run_id = ?1 AND e.name = ?5 AND e.seq > ?2 AND e.seq <= ?3";
    if (filter.evaluator_passed) sql += *filter.evaluator_passed ? " AND e.success = 1" : " AND e.success = 0";
  } else {
    sql += "items i WHERE i.run_id = ?1 AND i.seq > ?2 AND i.seq <= ?3";
  }
  switch (filter.status) {
    case ItemStatusFilter::all: break;
    case ItemStatusFilter::passed: sql += " AND i.success = 1"; break;
    case ItemStatusFilter::failed: sql += " AND i.success = 0"; break;
    case ItemStatusFilter::error: sql += " AND i.has_error = 1"; break;
  }
  for (std::size_t w = 0; w < filter.words.size(); ++w) sql.append(" AND i.document LIKE ?").append(std::to_string(w + 6)).append(" ESCAPE '\\'");
  sql += filter.evaluator ? " ORDER BY e.seq LIMIT ?4" : " ORDER BY i.seq LIMIT ?4";
  SqliteStatement query = connection_.prepare(sql);
  query.bind(1, run_id).bind(2, filter.after_seq).bind(3, window_end).bind(4, static_cast<std::int64_t>(filter.limit) + 1);
  query.bind(5, filter.evaluator);
  for (std::size_t w = 0; w < filter.words.size(); ++w) query.bind(static_cast<int>(w + 6), ui_text::contains_pattern(filter.words[w]));

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

std::vector<EvaluatorStats> SqliteStore::sum_evaluator_stats(const std::string& run_id) {
  std::vector<EvaluatorStats> out;
  SqliteStatement sums = connection_.prepare(
      "SELECT name, COUNT(*), SUM(success), COUNT(score), TOTAL(score), TOTAL(score * score), MIN(score), MAX(score) "
      "FROM eval_results WHERE run_id = ?1 GROUP BY name ORDER BY MIN(seq * 65536 + position), name");
  sums.bind(1, run_id);
  while (sums.step()) {
    EvaluatorStats stats;
    stats.name = sums.text(0);
    stats.count = sums.integer(1);
    stats.passed = sums.integer(2);
    stats.scored = sums.integer(3);
    stats.score_sum = sums.real(4);
    stats.score_sum_squares = sums.real(5);
    stats.score_min = sums.optional_real(6);
    stats.score_max = sums.optional_real(7);
    out.push_back(std::move(stats));
  }
  // Every score in its twentieth of [min, max], the max in the last; all in the first when they
  // are equal.
  SqliteStatement buckets = connection_.prepare(
      "SELECT e.name, MIN(?2, CAST((e.score - s.low) / (s.high - s.low) * ?3 AS INTEGER)), COUNT(*) FROM eval_results e "
      "JOIN (SELECT name, MIN(score) AS low, MAX(score) AS high FROM eval_results WHERE run_id = ?1 GROUP BY name) s ON s.name = e.name "
      "WHERE e.run_id = ?1 AND e.score IS NOT NULL AND s.high > s.low GROUP BY 1, 2");
  buckets.bind(1, run_id).bind(2, static_cast<std::int64_t>(kScoreBuckets - 1)).bind(3, static_cast<double>(kScoreBuckets));
  while (buckets.step()) {
    for (EvaluatorStats& stats : out)
      if (stats.name == buckets.text(0)) stats.buckets[static_cast<std::size_t>(buckets.integer(1))] = buckets.integer(2);
  }
  for (EvaluatorStats& stats : out)
    if (stats.score_min && stats.score_max && *stats.score_min == *stats.score_max) stats.buckets[0] = stats.scored;
  return out;
}

std::vector<EvaluatorStats> SqliteStore::keep_evaluator_stats(const std::string& run_id) {
  std::vector<EvaluatorStats> stats = sum_evaluator_stats(run_id);
  SqliteStatement insert = connection_.prepare(
      "INSERT OR REPLACE INTO run_evaluator_stats (run_id, position, name, count, passed, scored, score_sum, score_sum_squares, score_min, "
      "score_max, buckets) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  for (std::size_t i = 0; i < stats.size(); ++i) {
    const EvaluatorStats& s = stats[i];
    insert.bind(1, run_id).bind(2, static_cast<std::int64_t>(i)).bind(3, s.name).bind(4, s.count).bind(5, s.passed).bind(6, s.scored);
    insert.bind(7, s.score_sum).bind(8, s.score_sum_squares).bind(9, s.score_min).bind(10, s.score_max).bind(11, ui_text::buckets_text(s.buckets));
    insert.step();
    insert.reset();
  }
  return stats;
}

std::optional<std::vector<EvaluatorStats>> SqliteStore::evaluator_stats(const Scope& scope, const std::string& run_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement run = connection_.prepare("SELECT status FROM runs WHERE id = ?1 AND " + visible("tenant_id", 2));
  run.bind(1, run_id).bind(2, scope.tenant);
  if (!run.step()) return std::nullopt;
  if (!is_terminal(parse_status(run.text(0)).value_or(RunStatus::running))) return sum_evaluator_stats(run_id);
  SqliteStatement kept = connection_.prepare(
      "SELECT name, count, passed, scored, score_sum, score_sum_squares, score_min, score_max, buckets FROM run_evaluator_stats "
      "WHERE run_id = ?1 ORDER BY position");
  kept.bind(1, run_id);
  std::vector<EvaluatorStats> out;
  while (kept.step()) {
    out.push_back(EvaluatorStats{std::string(kept.text(0)), kept.integer(1), kept.integer(2), kept.integer(3), kept.real(4), kept.real(5),
                                 kept.optional_real(6), kept.optional_real(7), ui_text::parse_buckets(kept.text(8))});
  }
  if (!out.empty()) return out;
  // Ended before distributions were kept (or without verdicts, which costs nothing to sum again).
  SqliteTransaction transaction(connection_);
  out = keep_evaluator_stats(run_id);
  transaction.commit();
  return out;
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
