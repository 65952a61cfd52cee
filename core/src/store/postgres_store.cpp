#include "krino/core/store/postgres_store.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/utc_time.hpp"
#include "krino/core/store/migrations.hpp"

namespace krino::core::store {

namespace {

// Any number will do, as long as it is krino's: the lock that serialises migrations across replicas.
constexpr std::string_view kMigrationLock = "SELECT pg_advisory_xact_lock(7241902215)";

constexpr std::string_view kIsoTime = "'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'";

std::string iso(std::string_view column) {
  return "to_char(" + std::string(column) + " AT TIME ZONE 'UTC', " + std::string(kIsoTime) + ")";
}

int highest_applied(PgConnection& connection) {
  return static_cast<int>(connection.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").integer(0, 0));
}

}  // namespace

PostgresStore::PostgresStore(const std::string& conninfo, std::size_t connections) : pool_(conninfo, connections) {
  PgPool::Lease lease = pool_.acquire();
  apply_migrations(*lease);
}

int PostgresStore::schema_version() {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  return highest_applied(connection);
}

void PostgresStore::apply_migrations(PgConnection& connection) {
  PgTransaction transaction(connection);
  connection.execute(kMigrationLock);
  connection.execute(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)");
  const int applied = highest_applied(connection);
  const int known = migrations().back().version;
  if (applied > known)
    throw runtime_error("PostgreSQL " + connection.where() + ": the database is at schema version " + std::to_string(applied) +
                        ", newer than this krino knows (" + std::to_string(known) + "); use a newer krino");
  for (const Migration& migration : migrations()) {
    if (migration.version <= applied) continue;
    connection.execute(migration.postgres_sql);
    connection.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, now())",
                        PgParams().integer(migration.version).text(migration.name));
  }
  transaction.commit();
}

std::string PostgresStore::visible(std::string_view column, int param) {
  const std::string p = "$" + std::to_string(param) + "::text";
  const std::string c(column);
  return "(" + p + " IS NULL OR " + c + " IS NULL OR " + c + " = " + p + ")";
}

std::string PostgresStore::writable_id(PgConnection& connection, std::string_view table, std::string_view parent_column, const std::optional<std::string>& parent_id,
                                       const std::string& name, const Scope& scope) {
  // Own row first, then a shared one; `tenant_id = NULL` matches nothing, so an unscoped caller
  // finds only shared rows.
  const std::string parent_match = parent_id ? std::string(parent_column) + " = $3 AND " : std::string();
  const std::string find_sql = "SELECT id FROM " + std::string(table) + " WHERE " + parent_match +
                               "name = $1 AND (tenant_id IS NULL OR tenant_id = $2::text) ORDER BY tenant_id IS NULL LIMIT 1";
  auto find = [&]() -> std::optional<std::string> {
    PgParams params;
    params.text(name).optional(scope.tenant);
    if (parent_id) params.text(*parent_id);
    const PgResult rows = connection.execute(find_sql, params);
    if (rows.rows() == 0) return std::nullopt;
    return std::string(rows.text(0, 0));
  };
  if (auto id = find()) return *id;
  // Another replica may create the same row meanwhile: its insert wins, ours does nothing, and
  // the second look finds it.
  const std::string columns = parent_id ? "id, name, tenant_id, created_at, " + std::string(parent_column) : "id, name, tenant_id, created_at";
  const std::string values = parent_id ? "$1, $2, $3, now(), $4" : "$1, $2, $3, now()";
  PgParams params;
  params.text(to_text(ids_.next())).text(name).optional(scope.tenant);
  if (parent_id) params.text(*parent_id);
  connection.execute("INSERT INTO " + std::string(table) + " (" + columns + ") VALUES (" + values + ") ON CONFLICT DO NOTHING", params);
  return find().value();
}

CreatedRun PostgresStore::create_run(const Scope& scope, const NewRun& run) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  PgTransaction transaction(connection);
  CreatedRun created;
  created.project_id = writable_id(connection, "projects", "", std::nullopt, run.project, scope);
  created.experiment_id = writable_id(connection, "experiments", "project_id", created.project_id, run.experiment, scope);
  created.run_id = to_text(ids_.next());
  connection.execute(
      "INSERT INTO runs (id, experiment_id, tenant_id, status, metadata, dataset_version, git_branch, started_at) "
      "VALUES ($1, $2, $3, 'RUNNING', $4, $5, $6, $7)",
      PgParams()
          .text(created.run_id)
          .text(created.experiment_id)
          .optional(scope.tenant)
          .text(run.metadata)
          .optional(run.dataset_version)
          .optional(run.git_branch)
          .text(utc_timestamp_now()));
  transaction.commit();
  return created;
}

RunStatus PostgresStore::lock_run(PgConnection& connection, const Scope& scope, const std::string& run_id) {
  const PgResult row = connection.execute("SELECT status FROM runs WHERE id = $1 AND " + visible("tenant_id", 2) + " FOR UPDATE",
                                           PgParams().text(run_id).optional(scope.tenant));
  if (row.rows() == 0) throw StoreError(StoreError::Kind::not_found, "no run " + run_id);
  return parse_status(row.text(0, 0)).value_or(RunStatus::running);
}

IngestOutcome PostgresStore::add_items(const Scope& scope, const std::string& run_id, std::optional<std::string_view> idempotency_key,
                                       std::span<const NewItem> items) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  PgTransaction transaction(connection);
  // The run's row lock orders batches of one run across replicas (their seq numbers stay dense).
  const RunStatus status = lock_run(connection, scope, run_id);
  if (idempotency_key) {
    const PgResult seen = connection.execute("SELECT 1 FROM ingest_batches WHERE run_id = $1 AND idempotency_key = $2",
                                              PgParams().text(run_id).text(*idempotency_key));
    if (seen.rows() > 0) return IngestOutcome::already_stored;
  }
  if (has_ended(status)) throw StoreError(StoreError::Kind::conflict, "run " + run_id + " has ended; it takes no more items");
  const PgResult current = connection.execute(
      "SELECT item_count, passed_count, priced_count, tokenized_count, tokens_in, tokens_out, cost_usd, latency_ms_sum, error_count, "
      "latency_count FROM runs WHERE id = $1",
      PgParams().text(run_id));
  RunTotals totals{current.integer(0, 0),          current.integer(0, 1),          current.integer(0, 2),       current.integer(0, 3),
                   current.optional_integer(0, 4), current.optional_integer(0, 5), current.optional_real(0, 6), current.optional_real(0, 7),
                   current.integer(0, 8),          current.integer(0, 9)};
  std::int64_t seq = totals.items;
  const std::string now = utc_timestamp_now();
  PgBatchInsert item_rows(connection,
                          "items (id, run_id, seq, dataset_item_id, success, tokens_in, tokens_out, cost_usd, latency_ms, document, created_at, has_error)",
                          12);
  PgBatchInsert result_rows(connection, "eval_results (run_id, seq, position, item_id, name, score, threshold, success)", 8);
  for (const NewItem& item : items) {
    totals.add(item);
    const std::string item_id = to_text(ids_.next());
    const std::int64_t item_seq = seq++;
    item_rows.row()
        .text(item_id)
        .text(run_id)
        .integer(item_seq)
        .optional(item.dataset_item_id)
        .boolean(item.success)
        .optional(item.metrics.tokens_in)
        .optional(item.metrics.tokens_out)
        .optional(item.metrics.cost_usd)
        .optional(item.metrics.latency_ms)
        .text(item.document)
        .text(now)
        .boolean(item.has_error);
    std::int64_t position = 0;
    for (const NewResult& result : item.results)
      result_rows.row()
          .text(run_id)
          .integer(item_seq)
          .integer(position++)
          .text(item_id)
          .text(result.name)
          .optional(result.score)
          .optional(result.threshold)
          .boolean(result.success);
  }
  item_rows.flush();
  result_rows.flush();
  connection.execute(
      "UPDATE runs SET item_count = $2, passed_count = $3, priced_count = $4, tokenized_count = $5, tokens_in = $6, tokens_out = $7, "
      "cost_usd = $8, latency_ms_sum = $9, error_count = $10, latency_count = $11 WHERE id = $1",
      PgParams()
          .text(run_id)
          .integer(totals.items)
          .integer(totals.passed)
          .integer(totals.priced)
          .integer(totals.tokenized)
          .optional(totals.tokens_in)
          .optional(totals.tokens_out)
          .optional(totals.cost_usd)
          .optional(totals.latency_ms)
          .integer(totals.errors)
          .integer(totals.timed));
  if (idempotency_key)
    connection.execute("INSERT INTO ingest_batches (run_id, idempotency_key, item_count, created_at) VALUES ($1, $2, $3, now())",
                        PgParams().text(run_id).text(*idempotency_key).integer(static_cast<std::int64_t>(items.size())));
  transaction.commit();
  return IngestOutcome::stored;
}

void PostgresStore::set_run_status(const Scope& scope, const std::string& run_id, RunStatus status) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  PgTransaction transaction(connection);
  const RunStatus current = lock_run(connection, scope, run_id);
  if (current == status) return;
  if (has_ended(current))
    throw StoreError(StoreError::Kind::conflict, "run " + run_id + " has ended as " + std::string(status_name(current)) +
                                                     "; it cannot become " + std::string(status_name(status)));
  if (!is_terminal(status)) return;
  // The totals are up to date already (every batch brings them along): ending stamps the time.
  connection.execute("UPDATE runs SET status = $2, completed_at = $3 WHERE id = $1",
                     PgParams().text(run_id).text(status_name(status)).text(utc_timestamp_now()));
  queue_alert_check(connection, run_id);  // in this transaction: a run that ended is never missed by the alerts
  transaction.commit();
}

std::optional<RunDetails> PostgresStore::run(const Scope& scope, const std::string& run_id) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult row = connection.execute(
      "SELECT r.id, r.experiment_id, e.name, p.name, r.tenant_id, r.status, r.metadata, " + iso("r.started_at") + ", " +
          iso("r.completed_at") +
          ", r.item_count, r.passed_count, r.tokens_in, r.tokens_out, r.cost_usd, r.dataset_version, r.git_branch, r.priced_count, "
          "r.tokenized_count, r.error_count, r.text_index, r.latency_ms_sum, r.latency_count FROM runs r JOIN experiments e ON e.id = r.experiment_id JOIN projects p ON p.id = e.project_id WHERE r.id = $1 AND " +
          visible("r.tenant_id", 2),
      PgParams().text(run_id).optional(scope.tenant));
  if (row.rows() == 0) return std::nullopt;
  RunDetails details;
  details.id = row.text(0, 0);
  details.experiment_id = row.text(0, 1);
  details.experiment_name = row.text(0, 2);
  details.project_name = row.text(0, 3);
  details.tenant = row.optional_text(0, 4);
  details.status = parse_status(row.text(0, 5)).value_or(RunStatus::running);
  details.metadata = row.text(0, 6);
  details.started_at = row.text(0, 7);
  details.completed_at = row.optional_text(0, 8);
  details.total_items = row.integer(0, 9);
  details.passed_items = row.integer(0, 10);
  details.dataset_version = row.optional_text(0, 14);
  details.git_branch = row.optional_text(0, 15);
  details.tokens_in = row.optional_integer(0, 11);
  details.tokens_out = row.optional_integer(0, 12);
  details.cost_usd = row.optional_real(0, 13);
  details.priced_items = row.integer(0, 16);
  details.tokenized_items = row.integer(0, 17);
  details.error_items = row.integer(0, 18);
  details.text_index = parse_text_index(row.text(0, 19));
  details.latency_ms = row.optional_real(0, 20);
  details.timed_items = row.integer(0, 21);
  return details;
}

ItemPage PostgresStore::items(const Scope& scope, const std::string& run_id, std::int64_t after_seq, std::size_t limit) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult rows = connection.execute(
      "SELECT id, seq, success, document FROM items WHERE run_id = $1 AND seq > $2 "
      "AND EXISTS (SELECT 1 FROM runs WHERE id = $1 AND " + visible("tenant_id", 4) + ") ORDER BY seq LIMIT $3",
      PgParams().text(run_id).integer(after_seq).integer(static_cast<std::int64_t>(limit) + 1).optional(scope.tenant));
  ItemPage page;
  for (int row = 0; row < rows.rows(); ++row) {
    if (page.items.size() == limit) {
      page.next_after = page.items.back().seq;
      break;
    }
    page.items.push_back(StoredItem{std::string(rows.text(row, 0)), rows.integer(row, 1), rows.boolean(row, 2), std::string(rows.text(row, 3))});
  }
  return page;
}

}  // namespace krino::core::store

namespace krino::core::store {

std::vector<StoredItem> PostgresStore::items_at(const Scope& scope, const std::string& run_id, std::span<const std::int64_t> seqs) {
  std::vector<StoredItem> out;
  if (seqs.empty()) return out;
  // The positions as one array literal: one parameter whatever the page size.
  std::string array = "{";
  for (std::size_t i = 0; i < seqs.size(); ++i) array.append(i == 0 ? "" : ",").append(std::to_string(seqs[i]));
  array += "}";
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult rows = connection.execute(
      "SELECT id, seq, success, document FROM items WHERE run_id = $1 AND EXISTS (SELECT 1 FROM runs WHERE id = $1 AND " +
          visible("tenant_id", 2) + ") AND seq = ANY ($3::bigint[]) ORDER BY seq",
      PgParams().text(run_id).optional(scope.tenant).text(array));
  for (int row = 0; row < rows.rows(); ++row)
    out.push_back(StoredItem{std::string(rows.text(row, 0)), rows.integer(row, 1), rows.boolean(row, 2), std::string(rows.text(row, 3))});
  return out;
}

void PostgresStore::scan_items(const Scope& scope, const std::string& run_id, const std::function<void(const ScoredItem&)>& visit) {
  std::int64_t count = 0;
  {
    PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
    const PgResult run = connection.execute("SELECT item_count FROM runs WHERE id = $1 AND " + visible("tenant_id", 2),
                                             PgParams().text(run_id).optional(scope.tenant));
    if (run.rows() == 0) return;
    count = run.integer(0, 0);
  }
  // A chunk at a time (libpq holds a whole result in memory), the connection free between chunks.
  std::vector<ScoredItem> chunk;
  for (std::int64_t first = 0; first < count; first += kScanChunk) {
    chunk.clear();
    {
      PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
      // The chunk's items, then their verdicts: two ranges, each of one index.
      const PgResult items = connection.execute(
          "SELECT seq, dataset_item_id, success FROM items WHERE run_id = $1 AND seq >= $2 AND seq < $3 ORDER BY seq",
          PgParams().text(run_id).integer(first).integer(first + kScanChunk));
      for (int row = 0; row < items.rows(); ++row)
        chunk.push_back(ScoredItem{items.integer(row, 0), items.optional_text(row, 1), items.boolean(row, 2), {}});
      const PgResult results = connection.execute(
          "SELECT seq, name, score, threshold, success FROM eval_results WHERE run_id = $1 AND seq >= $2 AND seq < $3 ORDER BY seq, position",
          PgParams().text(run_id).integer(first).integer(first + kScanChunk));
      std::size_t at = 0;
      for (int row = 0; row < results.rows(); ++row) {
        const std::int64_t seq = results.integer(row, 0);
        while (at < chunk.size() && chunk[at].seq < seq) ++at;
        if (at == chunk.size() || chunk[at].seq != seq) continue;
        chunk[at].results.push_back(
            NewResult{std::string(results.text(row, 1)), results.optional_real(row, 2), results.optional_real(row, 3), results.boolean(row, 4)});
      }
    }
    for (const ScoredItem& item : chunk) visit(item);
  }
}

std::optional<std::string> PostgresStore::baseline_run(const Scope& scope, const BaselineQuery& baseline) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  // UUIDv7 ids are time-ordered, so "started before the candidate" is "smaller id".
  const PgResult rows = connection.execute(
      "SELECT id FROM runs WHERE experiment_id = $1 AND status = 'SUCCESS' AND id < $2::uuid "
      "AND (dataset_version IS NOT DISTINCT FROM $3::text OR ($6::text IS NOT NULL AND substr(dataset_version, 1, length($6::text)) = $6::text)) "
      "AND ($4::text IS NULL OR git_branch = $4::text) AND " + visible("tenant_id", 5) +
      " ORDER BY (dataset_version IS NOT DISTINCT FROM $3::text) DESC, id DESC LIMIT 1",
      PgParams().text(baseline.experiment_id).text(baseline.candidate_run_id).optional(baseline.dataset_version).optional(baseline.git_branch)
          .optional(scope.tenant).optional(store::dataset_lineage(baseline.dataset_version)));
  if (rows.rows() == 0) return std::nullopt;
  return std::string(rows.text(0, 0));
}

}  // namespace krino::core::store

namespace krino::core::store {

namespace {

std::string run_summary_columns(std::string_view alias) {
  const std::string a(alias);
  std::string columns = a + "id, " + a + "status, " + a + "metadata, " + a + "item_count, " + a + "passed_count, " + iso(a + "started_at") +
                        ", " + iso(a + "completed_at");
  columns.append(", EXTRACT(EPOCH FROM ").append(a).append("completed_at - ").append(a).append("started_at)::double precision * 1000, ");
  columns.append(a).append("cost_usd, ").append(a).append("tokens_in, ").append(a).append("tokens_out");
  return columns;
}

RunSummary read_run_summary(const PgResult& rows, int row, int first) {
  RunSummary run;
  run.id = rows.text(row, first);
  run.status = parse_status(rows.text(row, first + 1)).value_or(RunStatus::running);
  run.metadata = rows.text(row, first + 2);
  run.item_count = rows.integer(row, first + 3);
  run.passed_count = rows.integer(row, first + 4);
  run.started_at = rows.text(row, first + 5);
  run.completed_at = rows.optional_text(row, first + 6);
  run.duration_ms = rows.optional_real(row, first + 7);
  run.cost_usd = rows.optional_real(row, first + 8);
  run.tokens_in = rows.optional_integer(row, first + 9);
  run.tokens_out = rows.optional_integer(row, first + 10);
  return run;
}

// SQL for the highest pass rate among the runs with items of the experiment `experiment`, as the
// scope of parameter $param sees them (a scan of one experiment's runs by runs_by_experiment).
std::string best_pass_rate(std::string_view experiment, const std::string& visible_runs) {
  return "(SELECT MAX(passed_count::double precision / item_count) FROM runs WHERE experiment_id = " + std::string(experiment) +
         " AND item_count > 0 AND " + visible_runs + ")";
}

// Runs `sql` (parameters $1 `key` and $2 the scope's tenant); whether it deleted a row.
bool deleted(PgConnection& connection, std::string_view sql, const std::string& key, const Scope& scope) {
  const PgResult rows = connection.execute(std::string(sql) + " RETURNING 1", PgParams().text(key).optional(scope.tenant));
  return rows.rows() > 0;
}

}  // namespace

std::optional<std::string> PostgresStore::readable_project_id(PgConnection& connection, const Scope& scope, const std::string& name) {
  // The caller's own first (the tenant's, or the shared one for an unscoped caller), then shared,
  // then (unscoped only) the oldest tenant's.
  const PgResult rows = connection.execute(
      "SELECT id FROM projects WHERE name = $1 AND " + visible("tenant_id", 2) +
          " ORDER BY CASE WHEN tenant_id IS NOT DISTINCT FROM $2::text THEN 0 WHEN tenant_id IS NULL THEN 1 ELSE 2 END, id LIMIT 1",
      PgParams().text(name).optional(scope.tenant));
  if (rows.rows() == 0) return std::nullopt;
  return std::string(rows.text(0, 0));
}

std::vector<ProjectSummary> PostgresStore::projects(const Scope& scope) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult rows = connection.execute(
      "SELECT p.id, p.name, p.tenant_id, " + iso("p.created_at") + ", COUNT(DISTINCT e.id), " + iso("MAX(r.started_at)") +
          " FROM projects p LEFT JOIN experiments e ON e.project_id = p.id AND " + visible("e.tenant_id", 1) +
          " LEFT JOIN runs r ON r.experiment_id = e.id AND " + visible("r.tenant_id", 1) + " WHERE " + visible("p.tenant_id", 1) +
          " GROUP BY p.id, p.name, p.tenant_id, p.created_at ORDER BY p.name, p.id",
      PgParams().optional(scope.tenant));
  std::vector<ProjectSummary> out;
  for (int row = 0; row < rows.rows(); ++row) {
    ProjectSummary project;
    project.id = rows.text(row, 0);
    project.name = rows.text(row, 1);
    project.tenant = rows.optional_text(row, 2);
    project.created_at = rows.text(row, 3);
    project.experiment_count = rows.integer(row, 4);
    project.latest_activity = rows.optional_text(row, 5);
    out.push_back(std::move(project));
  }
  return out;
}

std::optional<std::vector<ExperimentSummary>> PostgresStore::experiments(const Scope& scope, const std::string& project_name) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const std::optional<std::string> project_id = readable_project_id(connection, scope, project_name);
  if (!project_id) return std::nullopt;
  const PgResult rows = connection.execute(
      "SELECT e.id, e.name, " + iso("e.created_at") + ", " + run_summary_columns("r.") + ", " + best_pass_rate("e.id", visible("tenant_id", 2)) +
          " FROM experiments e LEFT JOIN runs r ON r.id = "
          "(SELECT id FROM runs WHERE experiment_id = e.id AND " + visible("tenant_id", 2) +
          " ORDER BY started_at DESC, id DESC LIMIT 1) "
          "WHERE e.project_id = $1 AND " + visible("e.tenant_id", 2) + " ORDER BY e.name, e.id",
      PgParams().text(*project_id).optional(scope.tenant));
  std::vector<ExperimentSummary> out;
  for (int row = 0; row < rows.rows(); ++row) {
    ExperimentSummary experiment{std::string(rows.text(row, 0)), std::string(rows.text(row, 1)), std::string(rows.text(row, 2))};
    if (!rows.is_null(row, 3)) experiment.latest_run = read_run_summary(rows, row, 3);
    experiment.best_pass_rate = rows.optional_real(row, 14);
    out.push_back(std::move(experiment));
  }
  return out;
}

std::optional<ExperimentInfo> PostgresStore::experiment(const Scope& scope, const std::string& experiment_id) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult rows = connection.execute(
      "SELECT e.id, e.name, p.name, e.tenant_id, " + best_pass_rate("e.id", visible("tenant_id", 2)) +
          " FROM experiments e JOIN projects p ON p.id = e.project_id WHERE e.id = $1 AND " +
          visible("e.tenant_id", 2),
      PgParams().text(experiment_id).optional(scope.tenant));
  if (rows.rows() == 0) return std::nullopt;
  return ExperimentInfo{std::string(rows.text(0, 0)), std::string(rows.text(0, 1)), std::string(rows.text(0, 2)), rows.optional_text(0, 3),
                        rows.optional_real(0, 4)};
}

std::vector<RunSummary> PostgresStore::runs(const Scope& scope, const std::string& experiment_id, std::size_t limit) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult rows = connection.execute("SELECT " + run_summary_columns("") + " FROM runs WHERE experiment_id = $1 AND " +
                                                visible("tenant_id", 3) + " ORDER BY started_at DESC, id DESC LIMIT $2",
                                            PgParams().text(experiment_id).integer(static_cast<std::int64_t>(limit)).optional(scope.tenant));
  std::vector<RunSummary> out;
  for (int row = 0; row < rows.rows(); ++row) out.push_back(read_run_summary(rows, row, 0));
  return out;
}

void PostgresStore::purge_items(PgConnection& connection, std::string_view runs_sql, const std::string& key) {
  const std::string runs(runs_sql);
  drop_text_indexes(connection, runs, key);
  connection.execute("DELETE FROM eval_results WHERE run_id IN (" + runs + ")", PgParams().text(key));
  connection.execute("DELETE FROM items WHERE run_id IN (" + runs + ")", PgParams().text(key));
}

bool PostgresStore::delete_visible(std::string_view table, const std::string& id, const Scope& scope, std::string_view runs_sql) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  PgTransaction transaction(connection);
  const PgResult found = connection.execute(
      "SELECT 1 FROM " + std::string(table) + " WHERE id = $1 AND " + visible("tenant_id", 2) + " FOR UPDATE", PgParams().text(id).optional(scope.tenant));
  if (found.rows() == 0) return false;
  // The runs' rows locked before their items go: a replica adding a batch to one of them (it locks
  // the run's row too) then waits, and finds the run gone, instead of leaving items behind.
  connection.execute("SELECT 1 FROM runs WHERE id IN (" + std::string(runs_sql) + ") FOR UPDATE", PgParams().text(id));
  purge_items(connection, runs_sql, id);
  connection.execute("DELETE FROM " + std::string(table) + " WHERE id = $1", PgParams().text(id));
  transaction.commit();
  return true;
}

bool PostgresStore::delete_run(const Scope& scope, const std::string& run_id) { return delete_visible("runs", run_id, scope, "SELECT $1::uuid"); }

bool PostgresStore::delete_experiment(const Scope& scope, const std::string& experiment_id) {
  return delete_visible("experiments", experiment_id, scope, "SELECT id FROM runs WHERE experiment_id = $1");
}

bool PostgresStore::delete_project(const Scope& scope, const std::string& project_name) {
  std::optional<std::string> project_id;
  {
    PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
    project_id = readable_project_id(connection, scope, project_name);
  }
  return project_id && delete_visible("projects", *project_id, scope,
                                      "SELECT r.id FROM runs r JOIN experiments e ON e.id = r.experiment_id WHERE e.project_id = $1");
}

}  // namespace krino::core::store

namespace krino::core::store {

namespace {

std::string key_columns() { return "id, name, role, tenant_id, " + iso("created_at") + ", " + iso("disabled_at"); }

ApiKey read_key(const PgResult& rows, int row) {
  return ApiKey{std::string(rows.text(row, 0)), std::string(rows.text(row, 1)), parse_role(rows.text(row, 2)).value_or(Role::viewer),
                rows.optional_text(row, 3), std::string(rows.text(row, 4)), rows.optional_text(row, 5)};
}

}  // namespace

ApiKey PostgresStore::create_key(const std::string& name, Role role, const std::optional<std::string>& tenant, const std::string& key_hash) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  ApiKey key{to_text(ids_.next()), name, role, tenant, utc_timestamp_now(), std::nullopt};
  connection.execute("INSERT INTO api_keys (id, name, role, tenant_id, key_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
                      PgParams().text(key.id).text(name).text(role_name(role)).optional(tenant).text(key_hash).text(key.created_at));
  return key;
}

std::optional<ApiKey> PostgresStore::key_by_hash(const std::string& key_hash) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult rows = connection.execute("SELECT " + key_columns() + " FROM api_keys WHERE key_hash = $1", PgParams().text(key_hash));
  if (rows.rows() == 0) return std::nullopt;
  return read_key(rows, 0);
}

namespace {

// A tenant's admin sees only its tenant's keys: parameter $param NULL (unscoped) matches all.
std::string own_key(int param) {
  const std::string p = "$" + std::to_string(param) + "::text";
  return "(" + p + " IS NULL OR tenant_id = " + p + ")";
}

}  // namespace

std::vector<ApiKey> PostgresStore::keys(const Scope& scope) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult rows =
      connection.execute("SELECT " + key_columns() + " FROM api_keys WHERE " + own_key(1) + " ORDER BY id", PgParams().optional(scope.tenant));
  std::vector<ApiKey> out;
  for (int row = 0; row < rows.rows(); ++row) out.push_back(read_key(rows, row));
  return out;
}

bool PostgresStore::has_keys() {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  return connection.execute("SELECT EXISTS (SELECT 1 FROM api_keys)").boolean(0, 0);
}

bool PostgresStore::disable_key(const Scope& scope, const std::string& key_id) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  return connection
             .execute("UPDATE api_keys SET disabled_at = COALESCE(disabled_at, now()) WHERE id = $1 AND " + own_key(2) + " RETURNING 1",
                      PgParams().text(key_id).optional(scope.tenant))
             .rows() > 0;
}

bool PostgresStore::delete_key(const Scope& scope, const std::string& key_id) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  return deleted(connection, "DELETE FROM api_keys WHERE id = $1 AND " + own_key(2), key_id, scope);
}

void PostgresStore::record_write(const AuditEntry& entry) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  connection.execute("INSERT INTO audit_log (id, at, key_id, tenant_id, method, path, status) VALUES ($1, now(), $2, $3, $4, $5, $6)",
                      PgParams()
                          .text(to_text(ids_.next()))
                          .optional(entry.key_id)
                          .optional(entry.tenant)
                          .text(entry.method)
                          .text(entry.path)
                          .integer(static_cast<std::int64_t>(entry.status)));
}

}  // namespace krino::core::store
