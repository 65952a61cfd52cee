// What the web UI reads from a PostgreSQL store: filtered item pages, evaluator distributions, the
// log of gate verdicts.
#include "krino/core/store/postgres_store.hpp"
#include "text_index_sql.hpp"
#include "ui_read_text.hpp"

#include <cmath>
#include <limits>
#include <string>

namespace krino::core::store {

namespace {
// A sum that overflowed is kept as NULL (a float8 parameter takes no "inf" text) and read back as
// not a number.
constexpr double kPostgresUnsummed = std::numeric_limits<double>::quiet_NaN();
std::optional<double> finite_or_null(double value) { return std::isfinite(value) ? std::optional<double>(value) : std::nullopt; }
}  // namespace

std::optional<FilteredItemPage> PostgresStore::filtered_items(const Scope& scope, const std::string& run_id, const ItemFilter& filter) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult run = connection.execute("SELECT item_count, text_index FROM runs WHERE id = $1 AND " + visible("tenant_id", 2),
                                          PgParams().text(run_id).optional(scope.tenant));
  if (run.rows() == 0) return std::nullopt;
  const std::int64_t last_seq = run.integer(0, 0) - 1;
  // A search the run's ready index can narrow reads the run's copy of the documents (its GIN
  // index, or its positions in order: the planner weighs them), from after_seq to the run's end.
  const bool indexed = parse_text_index(run.text(0, 1)) == TextIndexState::ready && text_index::narrows(filter.words);
  const std::int64_t window_end = indexed || filter.window >= last_seq - filter.after_seq ? last_seq : filter.after_seq + filter.window;

  // $1 run, $2 after, $3 window end, $4 limit + 1, $5 evaluator, then the words from $6: the same
  // query as SQLite's (sqlite_ui_reads.cpp), with the predicates of the partial indexes.
  std::string sql = "SELECT i.id, i.seq, i.success, i.document FROM ";
  if (indexed) sql.append(text_index::table_name(run_id)).append(" t CROSS JOIN ");
  if (filter.evaluator) {
    sql += "eval_results e JOIN items i ON i.run_id = e.run_id AND i.seq = e.seq WHERE e.run_id = $1 AND e.name = $5 AND e.seq > $2 AND e.seq <= $3";
    if (filter.evaluator_passed) sql += *filter.evaluator_passed ? " AND e.success" : " AND NOT e.success";
  } else {
    sql += "items i WHERE i.run_id = $1 AND i.seq > $2 AND i.seq <= $3 AND $5::text IS NULL";
  }
  if (indexed) sql += " AND t.seq = i.seq AND t.seq > $2";
  switch (filter.status) {
    case ItemStatusFilter::all: break;
    case ItemStatusFilter::passed: sql += " AND i.success"; break;
    case ItemStatusFilter::failed: sql += " AND NOT i.success"; break;
    case ItemStatusFilter::error: sql += " AND i.has_error"; break;
  }
  // ILIKE under the "C" collation folds ASCII letters only, as SQLite's LIKE does, and is several
  // times faster than under a language's rules (docs/decisions.md). With the index, on the copy
  // (the same text), where the GIN index applies.
  // (ILIKE under "C" is LIKE over both texts lowered under "C": the form the GIN index is built on.)
  for (std::size_t w = 0; w < filter.words.size(); ++w) {
    const std::string param = "$" + std::to_string(w + 6);
    if (indexed) sql.append(" AND lower(t.document) LIKE lower(").append(param).append(" COLLATE \"C\")");
    sql.append(indexed ? " AND t.document ILIKE " : " AND i.document ILIKE ").append(param).append(" COLLATE \"C\"");
  }
  if (indexed) sql += " ORDER BY t.seq LIMIT $4";
  else sql += filter.evaluator ? " ORDER BY e.seq LIMIT $4" : " ORDER BY i.seq LIMIT $4";
  PgParams params;
  params.text(run_id).integer(filter.after_seq).integer(window_end).integer(static_cast<std::int64_t>(filter.limit) + 1).optional(filter.evaluator);
  for (const std::string& word : filter.words) params.text(ui_text::contains_pattern(word));
  const PgResult rows = connection.execute(sql, params);

  FilteredItemPage page;
  for (int row = 0; row < rows.rows(); ++row) {
    const std::int64_t seq = rows.integer(row, 1);
    if (!page.items.empty() && page.items.back().seq == seq) continue;  // two verdicts of one name on one item
    if (page.items.size() == filter.limit) {
      page.next_after = page.items.back().seq;
      return page;
    }
    page.items.push_back(StoredItem{std::string(rows.text(row, 0)), seq, rows.boolean(row, 2), std::string(rows.text(row, 3))});
  }
  if (static_cast<std::size_t>(rows.rows()) == filter.limit + 1 && !page.items.empty()) page.next_after = page.items.back().seq;
  else if (window_end < last_seq) page.next_after = window_end;  // the window ran out before the run did
  return page;
}

void PostgresStore::scan_verdicts(const Scope& scope, const std::string& run_id, const std::function<void(const ScoredItem&)>& visit) {
  std::int64_t count = 0;
  {
    PgPool::Lease lease = pool_.acquire();
    PgConnection& connection = *lease;
    const PgResult run = connection.execute("SELECT item_count FROM runs WHERE id = $1 AND " + visible("tenant_id", 2),
                                            PgParams().text(run_id).optional(scope.tenant));
    if (run.rows() == 0) return;
    count = run.integer(0, 0);
  }
  // A chunk of positions at a time (libpq holds a whole result in memory), as scan_items.
  std::vector<ScoredItem> chunk;
  for (std::int64_t first = 0; first < count; first += kScanChunk) {
    chunk.clear();
    {
      PgPool::Lease lease = pool_.acquire();
      PgConnection& connection = *lease;
      const PgResult results = connection.execute(
          "SELECT seq, name, score, threshold, success FROM eval_results WHERE run_id = $1 AND seq >= $2 AND seq < $3 ORDER BY seq, position",
          PgParams().text(run_id).integer(first).integer(first + kScanChunk));
      for (int row = 0; row < results.rows(); ++row) {
        const std::int64_t seq = results.integer(row, 0);
        if (chunk.empty() || chunk.back().seq != seq) chunk.push_back(ScoredItem{seq, std::nullopt, false, {}});
        chunk.back().results.push_back(
            NewResult{std::string(results.text(row, 1)), results.optional_real(row, 2), results.optional_real(row, 3), results.boolean(row, 4)});
      }
    }
    for (const ScoredItem& item : chunk) visit(item);
  }
}

std::optional<std::vector<EvaluatorStats>> PostgresStore::kept_evaluator_stats(const std::string& run_id) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult kept = connection.execute(
      "SELECT name, count, passed, scored, score_sum, score_sum_squares, score_min, score_max, buckets FROM run_evaluator_stats "
      "WHERE run_id = $1 ORDER BY position",
      PgParams().text(run_id));
  if (kept.rows() == 0) return std::nullopt;
  std::vector<EvaluatorStats> out;
  for (int row = 0; row < kept.rows(); ++row) {
    out.push_back(EvaluatorStats{std::string(kept.text(row, 0)), kept.integer(row, 1), kept.integer(row, 2), kept.integer(row, 3),
                                 kept.optional_real(row, 4).value_or(kPostgresUnsummed), kept.optional_real(row, 5).value_or(kPostgresUnsummed), kept.optional_real(row, 6),
                                 kept.optional_real(row, 7), ui_text::parse_buckets(kept.text(row, 8))});
  }
  return out;
}

void PostgresStore::keep_evaluator_stats(const std::string& run_id, const std::vector<EvaluatorStats>& stats) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  PgTransaction transaction(connection);
  // Two readers (or replicas) may sum the same run at once: the same numbers, kept once.
  for (std::size_t i = 0; i < stats.size(); ++i) {
    const EvaluatorStats& e = stats[i];
    connection.execute(
        "INSERT INTO run_evaluator_stats (run_id, position, name, count, passed, scored, score_sum, score_sum_squares, score_min, "
        "score_max, buckets) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (run_id, position) DO NOTHING",
        PgParams()
            .text(run_id)
            .integer(static_cast<std::int64_t>(i))
            .text(e.name)
            .integer(e.count)
            .integer(e.passed)
            .integer(e.scored)
            .optional(finite_or_null(e.score_sum))
            .optional(finite_or_null(e.score_sum_squares))
            .optional(e.score_min)
            .optional(e.score_max)
            .text(ui_text::buckets_text(e.buckets)));
  }
  transaction.commit();
}

void PostgresStore::record_gate(const std::string& experiment_id, const std::string& candidate_run_id,
                                const std::optional<std::string>& baseline_run_id, std::string_view status,
                                std::optional<double> pass_rate_delta) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  connection.execute(
      "INSERT INTO gate_verdicts (id, experiment_id, tenant_id, candidate_run_id, baseline_run_id, status, pass_rate_delta, created_at) "
      "SELECT $1, $2, tenant_id, $3, $4, $5, $6, now() FROM runs WHERE id = $3",
      PgParams().text(to_text(ids_.next())).text(experiment_id).text(candidate_run_id).optional(baseline_run_id).text(status).optional(pass_rate_delta));
}

std::vector<GateRecord> PostgresStore::gates(const Scope& scope, const GateQuery& query) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult rows = connection.execute(
      "SELECT g.id, g.experiment_id, e.name, p.name, g.candidate_run_id, g.baseline_run_id, g.status, g.pass_rate_delta, "
      "to_char(g.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') "
      "FROM gate_verdicts g JOIN experiments e ON e.id = g.experiment_id JOIN projects p ON p.id = e.project_id WHERE " +
          visible("g.tenant_id", 1) + " AND ($2::text IS NULL OR g.status = $2) AND ($3::uuid IS NULL OR g.experiment_id = $3) " +
          "ORDER BY g.id DESC LIMIT $4",
      PgParams().optional(scope.tenant).optional(query.status).optional(query.experiment_id).integer(static_cast<std::int64_t>(query.limit)));
  std::vector<GateRecord> out;
  for (int row = 0; row < rows.rows(); ++row) {
    out.push_back(GateRecord{std::string(rows.text(row, 0)), std::string(rows.text(row, 1)), std::string(rows.text(row, 2)),
                             std::string(rows.text(row, 3)), std::string(rows.text(row, 4)), rows.optional_text(row, 5),
                             std::string(rows.text(row, 6)), rows.optional_real(row, 7), std::string(rows.text(row, 8))});
  }
  return out;
}

}  // namespace krino::core::store
