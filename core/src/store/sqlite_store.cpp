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

// The rows a scope sees, given the scope's tenant as parameter `?param`: every row when it is NULL
// (unscoped), else the tenant's own and the shared ones.
std::string SqliteStore::visible(std::string_view column, int param) {
  const std::string p = "?" + std::to_string(param);
  const std::string c(column);
  return "(" + p + " IS NULL OR " + c + " IS NULL OR " + c + " = " + p + ")";
}

SqliteStore::SqliteStore(const std::filesystem::path& path) : connection_(path.string()), text_index_dir_(path.parent_path() / "text-index") {
  // A wait instead of SQLITE_BUSY when another process (a second `krino serve` by mistake, a
  // backup) holds the lock for a moment.
  sqlite3_busy_timeout(connection_.handle(), 5000);
  // A page cache of up to 16 MiB (the default is 2 MiB): ingestion's index inserts and a
  // comparison's scans then read pages from memory instead of the file.
  connection_.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; PRAGMA cache_size=-16384;");
  apply_migrations();
  reconcile_text_indexes();
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
    SqliteTransaction transaction(connection_);
    if (highest_applied(connection_) < migration.version) {
      connection_.execute(migration.sqlite_sql);
      SqliteStatement record = connection_.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)");
      record.bind(1, static_cast<std::int64_t>(migration.version)).bind(2, migration.name).bind(3, utc_timestamp_now());
      record.step();
    }
    transaction.commit();
  }
}

}  // namespace krino::core::store

namespace krino::core::store {

namespace {

std::string not_found_run(const std::string& run_id) { return "no run " + run_id; }

}  // namespace

std::string SqliteStore::writable_id(std::string_view table, std::string_view parent_column, const std::optional<std::string>& parent_id,
                                     const std::string& name, const Scope& scope) {
  // Own row first, then a shared one; `tenant_id = NULL` matches nothing, so an unscoped caller
  // finds only shared rows.
  const std::string parent_match = parent_id ? std::string(parent_column) + " = ?3 AND " : std::string();
  const std::string find_sql = "SELECT id FROM " + std::string(table) + " WHERE " + parent_match +
                               "name = ?1 AND (tenant_id IS NULL OR tenant_id = ?2) ORDER BY tenant_id IS NULL LIMIT 1";
  auto find = [&]() -> std::optional<std::string> {
    SqliteStatement query = connection_.prepare(find_sql);
    query.bind(1, name).bind(2, scope.tenant);
    if (parent_id) query.bind(3, *parent_id);
    if (!query.step()) return std::nullopt;
    return std::string(query.text(0));
  };
  if (auto id = find()) return *id;
  const std::string id = to_text(ids_.next());
  const std::string columns = parent_id ? "id, name, tenant_id, created_at, " + std::string(parent_column) : "id, name, tenant_id, created_at";
  const std::string values = parent_id ? "?1, ?2, ?3, ?4, ?5" : "?1, ?2, ?3, ?4";
  SqliteStatement insert = connection_.prepare("INSERT INTO " + std::string(table) + " (" + columns + ") VALUES (" + values + ")");
  insert.bind(1, id).bind(2, name).bind(3, scope.tenant).bind(4, utc_timestamp_now());
  if (parent_id) insert.bind(5, *parent_id);
  insert.step();
  return id;
}

CreatedRun SqliteStore::create_run(const Scope& scope, const NewRun& run) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  CreatedRun created;
  created.project_id = writable_id("projects", "", std::nullopt, run.project, scope);
  created.experiment_id = writable_id("experiments", "project_id", created.project_id, run.experiment, scope);
  created.run_id = to_text(ids_.next());
  SqliteStatement insert = connection_.prepare(
      "INSERT INTO runs (id, experiment_id, tenant_id, status, metadata, dataset_version, git_branch, started_at) "
      "VALUES (?1, ?2, ?3, 'RUNNING', ?4, ?5, ?6, ?7)");
  insert.bind(1, created.run_id).bind(2, created.experiment_id).bind(3, scope.tenant).bind(4, run.metadata);
  insert.bind(5, run.dataset_version).bind(6, run.git_branch).bind(7, utc_timestamp_now());
  insert.step();
  transaction.commit();
  return created;
}

RunStatus SqliteStore::status_of(const Scope& scope, const std::string& run_id) {
  SqliteStatement query = connection_.prepare("SELECT status FROM runs WHERE id = ?1 AND " + visible("tenant_id", 2));
  query.bind(1, run_id).bind(2, scope.tenant);
  if (!query.step()) throw StoreError(StoreError::Kind::not_found, not_found_run(run_id));
  return parse_status(query.text(0)).value_or(RunStatus::running);
}

IngestOutcome SqliteStore::add_items(const Scope& scope, const std::string& run_id, std::optional<std::string_view> idempotency_key,
                                     std::span<const NewItem> items) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  const RunStatus status = status_of(scope, run_id);
  if (idempotency_key) {
    // Checked before the run's status: a retry of the last batch may arrive after the run ended.
    SqliteStatement seen = connection_.prepare("SELECT 1 FROM ingest_batches WHERE run_id = ?1 AND idempotency_key = ?2");
    seen.bind(1, run_id).bind(2, *idempotency_key);
    if (seen.step()) return IngestOutcome::already_stored;
  }
  if (has_ended(status)) throw StoreError(StoreError::Kind::conflict, "run " + run_id + " has ended; it takes no more items");

  SqliteStatement current = connection_.prepare(
      "SELECT item_count, passed_count, priced_count, tokenized_count, tokens_in, tokens_out, cost_usd, latency_ms_sum, error_count, "
      "latency_count FROM runs WHERE id = ?1");
  current.bind(1, run_id);
  current.step();
  RunTotals totals{current.integer(0),          current.integer(1),          current.integer(2),       current.integer(3),
                   current.optional_integer(4), current.optional_integer(5), current.optional_real(6), current.optional_real(7),
                   current.integer(8),          current.integer(9)};
  std::int64_t seq = totals.items;

  SqliteStatement insert_item = connection_.prepare(
      "INSERT INTO items (id, run_id, seq, dataset_item_id, success, tokens_in, tokens_out, cost_usd, latency_ms, document, created_at, "
      "has_error) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
  SqliteStatement insert_result = connection_.prepare(
      "INSERT INTO eval_results (run_id, seq, position, item_id, name, score, threshold, success) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
  const std::string now = utc_timestamp_now();
  for (const NewItem& item : items) {
    totals.add(item);
    const std::string item_id = to_text(ids_.next());
    const std::int64_t item_seq = seq++;
    insert_item.bind(1, item_id).bind(2, run_id).bind(3, item_seq).bind(4, item.dataset_item_id);
    insert_item.bind(5, static_cast<std::int64_t>(item.success)).bind(6, item.metrics.tokens_in).bind(7, item.metrics.tokens_out);
    insert_item.bind(8, item.metrics.cost_usd).bind(9, item.metrics.latency_ms).bind(10, item.document).bind(11, now);
    insert_item.bind(12, static_cast<std::int64_t>(item.has_error));
    insert_item.step();
    insert_item.reset();
    std::int64_t position = 0;
    for (const NewResult& result : item.results) {
      insert_result.bind(1, run_id).bind(2, item_seq).bind(3, position++).bind(4, item_id).bind(5, result.name);
      insert_result.bind(6, result.score).bind(7, result.threshold).bind(8, static_cast<std::int64_t>(result.success));
      insert_result.step();
      insert_result.reset();
    }
  }
  SqliteStatement advance = connection_.prepare(
      "UPDATE runs SET item_count = ?2, passed_count = ?3, priced_count = ?4, tokenized_count = ?5, tokens_in = ?6, tokens_out = ?7, "
      "cost_usd = ?8, latency_ms_sum = ?9, error_count = ?10, latency_count = ?11 WHERE id = ?1");
  advance.bind(1, run_id).bind(2, totals.items).bind(3, totals.passed).bind(4, totals.priced).bind(5, totals.tokenized);
  advance.bind(6, totals.tokens_in).bind(7, totals.tokens_out).bind(8, totals.cost_usd).bind(9, totals.latency_ms).bind(10, totals.errors);
  advance.bind(11, totals.timed);
  advance.step();
  if (idempotency_key) {
    SqliteStatement record = connection_.prepare(
        "INSERT INTO ingest_batches (run_id, idempotency_key, item_count, created_at) VALUES (?1, ?2, ?3, ?4)");
    record.bind(1, run_id).bind(2, *idempotency_key).bind(3, static_cast<std::int64_t>(items.size())).bind(4, now);
    record.step();
  }
  transaction.commit();
  return IngestOutcome::stored;
}

void SqliteStore::set_run_status(const Scope& scope, const std::string& run_id, RunStatus status) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  const RunStatus current = status_of(scope, run_id);
  if (current == status) return;  // a client repeating itself
  if (has_ended(current))
    throw StoreError(StoreError::Kind::conflict, "run " + run_id + " has ended as " + std::string(status_name(current)) +
                                                     "; it cannot become " + std::string(status_name(status)));
  if (!is_terminal(status)) return;
  // The totals are up to date already (every batch brings them along): ending stamps the time.
  SqliteStatement finish = connection_.prepare("UPDATE runs SET status = ?2, completed_at = ?3 WHERE id = ?1");
  finish.bind(1, run_id).bind(2, status_name(status)).bind(3, utc_timestamp_now());
  finish.step();
  queue_alert_check(run_id);  // in this transaction: a run that ended is never missed by the alerts
  transaction.commit();
}

std::optional<RunDetails> SqliteStore::run(const Scope& scope, const std::string& run_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare(
      "SELECT r.id, r.experiment_id, e.name, p.name, r.tenant_id, r.status, r.metadata, r.started_at, r.completed_at, "
      "r.item_count, r.passed_count, r.tokens_in, r.tokens_out, r.cost_usd, r.dataset_version, r.git_branch, r.priced_count, r.tokenized_count, r.error_count, "
      "r.text_index, r.latency_ms_sum, r.latency_count FROM runs r JOIN experiments e ON e.id = r.experiment_id JOIN projects p ON p.id = e.project_id WHERE r.id = ?1 AND " +
      visible("r.tenant_id", 2));
  query.bind(1, run_id).bind(2, scope.tenant);
  if (!query.step()) return std::nullopt;
  RunDetails details;
  details.id = query.text(0);
  details.experiment_id = query.text(1);
  details.experiment_name = query.text(2);
  details.project_name = query.text(3);
  details.tenant = query.optional_text(4);
  details.status = parse_status(query.text(5)).value_or(RunStatus::running);
  details.metadata = query.text(6);
  details.started_at = query.text(7);
  details.completed_at = query.optional_text(8);
  details.total_items = query.integer(9);
  details.passed_items = query.integer(10);
  details.dataset_version = query.optional_text(14);
  details.git_branch = query.optional_text(15);
  details.tokens_in = query.optional_integer(11);
  details.tokens_out = query.optional_integer(12);
  details.cost_usd = query.optional_real(13);
  details.priced_items = query.integer(16);
  details.tokenized_items = query.integer(17);
  details.error_items = query.integer(18);
  details.text_index = parse_text_index(query.text(19));
  details.latency_ms = query.optional_real(20);
  details.timed_items = query.integer(21);
  return details;
}

ItemPage SqliteStore::items(const Scope& scope, const std::string& run_id, std::int64_t after_seq, std::size_t limit) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare(
      "SELECT id, seq, success, document FROM items WHERE run_id = ?1 AND seq > ?2 "
      "AND EXISTS (SELECT 1 FROM runs WHERE id = ?1 AND " + visible("tenant_id", 4) + ") ORDER BY seq LIMIT ?3");
  // One more than asked: whether there is a next page, without a COUNT.
  query.bind(1, run_id).bind(2, after_seq).bind(3, static_cast<std::int64_t>(limit) + 1).bind(4, scope.tenant);
  ItemPage page;
  while (query.step()) {
    if (page.items.size() == limit) {
      page.next_after = page.items.back().seq;
      break;
    }
    page.items.push_back(StoredItem{std::string(query.text(0)), query.integer(1), query.integer(2) != 0, std::string(query.text(3))});
  }
  return page;
}

}  // namespace krino::core::store

namespace krino::core::store {

std::vector<StoredItem> SqliteStore::items_at(const Scope& scope, const std::string& run_id, std::span<const std::int64_t> seqs) {
  std::vector<StoredItem> out;
  if (seqs.empty()) return out;
  std::string sql = "SELECT id, seq, success, document FROM items WHERE run_id = ?1 AND EXISTS (SELECT 1 FROM runs WHERE id = ?1 AND " +
                    visible("tenant_id", 2) + ") AND seq IN (";
  for (std::size_t i = 0; i < seqs.size(); ++i) sql.append(i == 0 ? "?" : ", ?").append(std::to_string(i + 3));
  sql += ") ORDER BY seq";
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare(sql);
  query.bind(1, run_id).bind(2, scope.tenant);
  for (std::size_t i = 0; i < seqs.size(); ++i) query.bind(static_cast<int>(i + 3), seqs[i]);
  while (query.step()) out.push_back(StoredItem{std::string(query.text(0)), query.integer(1), query.integer(2) != 0, std::string(query.text(3))});
  return out;
}

void SqliteStore::scan_items(const Scope& scope, const std::string& run_id, const std::function<void(const ScoredItem&)>& visit) {
  std::int64_t count = 0;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    SqliteStatement run = connection_.prepare("SELECT item_count FROM runs WHERE id = ?1 AND " + visible("tenant_id", 2));
    run.bind(1, run_id).bind(2, scope.tenant);
    if (!run.step()) return;
    count = run.integer(0);
  }
  // A chunk at a time, the lock released between chunks (and while visiting), so a comparison of
  // a long run never holds up ingestion for long.
  std::vector<ScoredItem> chunk;
  for (std::int64_t first = 0; first < count; first += kScanChunk) {
    chunk.clear();
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      // The chunk's items, then their verdicts: two ranges, each of one index.
      SqliteStatement items = connection_.prepare(
          "SELECT seq, dataset_item_id, success FROM items WHERE run_id = ?1 AND seq >= ?2 AND seq < ?3 ORDER BY seq");
      items.bind(1, run_id).bind(2, first).bind(3, first + kScanChunk);
      while (items.step()) chunk.push_back(ScoredItem{items.integer(0), items.optional_text(1), items.integer(2) != 0, {}});
      SqliteStatement results = connection_.prepare(
          "SELECT seq, name, score, threshold, success FROM eval_results WHERE run_id = ?1 AND seq >= ?2 AND seq < ?3 ORDER BY seq, position");
      results.bind(1, run_id).bind(2, first).bind(3, first + kScanChunk);
      std::size_t at = 0;
      while (results.step()) {
        const std::int64_t seq = results.integer(0);
        while (at < chunk.size() && chunk[at].seq < seq) ++at;
        if (at == chunk.size() || chunk[at].seq != seq) continue;
        chunk[at].results.push_back(
            NewResult{std::string(results.text(1)), results.optional_real(2), results.optional_real(3), results.integer(4) != 0});
      }
    }
    for (const ScoredItem& item : chunk) visit(item);
  }
}

std::optional<std::string> SqliteStore::baseline_run(const Scope& scope, const BaselineQuery& baseline) {
  const std::lock_guard<std::mutex> lock(mutex_);
  // Ids are time-ordered, so "started before the candidate" is "smaller id" even within a second.
  SqliteStatement query = connection_.prepare(
      "SELECT id FROM runs WHERE experiment_id = ?1 AND status = 'SUCCESS' AND id < ?2 "
      "AND (dataset_version IS ?3 OR (?6 IS NOT NULL AND substr(dataset_version, 1, length(?6)) = ?6)) "
      "AND (?4 IS NULL OR git_branch = ?4) AND " + visible("tenant_id", 5) +
      " ORDER BY CASE WHEN dataset_version IS ?3 THEN 0 ELSE 1 END, id DESC LIMIT 1");
  query.bind(1, baseline.experiment_id).bind(2, baseline.candidate_run_id).bind(3, baseline.dataset_version).bind(4, baseline.git_branch);
  query.bind(5, scope.tenant).bind(6, dataset_lineage(baseline.dataset_version));
  if (!query.step()) return std::nullopt;
  return std::string(query.text(0));
}

}  // namespace krino::core::store

namespace krino::core::store {

namespace {

constexpr std::string_view kRunSummaryColumns =
    "id, status, metadata, item_count, passed_count, started_at, completed_at, "
    "(julianday(completed_at) - julianday(started_at)) * 86400000.0, cost_usd, tokens_in, tokens_out";

// The columns of kRunSummaryColumns from `first` on.
RunSummary read_run_summary(const SqliteStatement& row, int first) {
  RunSummary run;
  run.id = row.text(first);
  run.status = parse_status(row.text(first + 1)).value_or(RunStatus::running);
  run.metadata = row.text(first + 2);
  run.item_count = row.integer(first + 3);
  run.passed_count = row.integer(first + 4);
  run.started_at = row.text(first + 5);
  run.completed_at = row.optional_text(first + 6);
  run.duration_ms = row.optional_real(first + 7);
  run.cost_usd = row.optional_real(first + 8);
  run.tokens_in = row.optional_integer(first + 9);
  run.tokens_out = row.optional_integer(first + 10);
  return run;
}

}  // namespace

// SQL for the highest pass rate among the runs with items of the experiment `experiment`, as the
// scope of parameter ?param sees them (a scan of one experiment's runs by runs_by_experiment).
std::string SqliteStore::best_pass_rate(std::string_view experiment, int param) {
  return "(SELECT MAX(CAST(passed_count AS REAL) / item_count) FROM runs WHERE experiment_id = " + std::string(experiment) +
         " AND item_count > 0 AND " + visible("tenant_id", param) + ")";
}

bool SqliteStore::changed(std::string_view sql, const std::string& key, const Scope& scope) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement statement = connection_.prepare(sql);
  statement.bind(1, key).bind(2, scope.tenant);
  statement.step();
  return sqlite3_changes(connection_.handle()) > 0;
}

std::optional<std::string> SqliteStore::readable_project_id(const Scope& scope, const std::string& name) {
  // The caller's own first (the tenant's, or the shared one for an unscoped caller), then shared,
  // then (unscoped only) the oldest tenant's.
  SqliteStatement query = connection_.prepare(
      "SELECT id FROM projects WHERE name = ?1 AND " + visible("tenant_id", 2) +
      " ORDER BY CASE WHEN tenant_id IS ?2 THEN 0 WHEN tenant_id IS NULL THEN 1 ELSE 2 END, id LIMIT 1");
  query.bind(1, name).bind(2, scope.tenant);
  if (!query.step()) return std::nullopt;
  return std::string(query.text(0));
}

std::vector<ProjectSummary> SqliteStore::projects(const Scope& scope) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare(
      "SELECT p.id, p.name, p.tenant_id, p.created_at, COUNT(DISTINCT e.id), MAX(r.started_at) FROM projects p "
      "LEFT JOIN experiments e ON e.project_id = p.id AND " + visible("e.tenant_id", 1) +
      " LEFT JOIN runs r ON r.experiment_id = e.id AND " + visible("r.tenant_id", 1) +
      " WHERE " + visible("p.tenant_id", 1) + " GROUP BY p.id, p.name, p.tenant_id, p.created_at ORDER BY p.name, p.id");
  query.bind(1, scope.tenant);
  std::vector<ProjectSummary> out;
  while (query.step()) {
    ProjectSummary project;
    project.id = query.text(0);
    project.name = query.text(1);
    project.tenant = query.optional_text(2);
    project.created_at = query.text(3);
    project.experiment_count = query.integer(4);
    project.latest_activity = query.optional_text(5);
    out.push_back(std::move(project));
  }
  return out;
}

std::optional<std::vector<ExperimentSummary>> SqliteStore::experiments(const Scope& scope, const std::string& project_name) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const std::optional<std::string> project_id = readable_project_id(scope, project_name);
  if (!project_id) return std::nullopt;
  SqliteStatement query = connection_.prepare(
      "SELECT e.id, e.name, e.created_at, r.id, r.status, r.metadata, r.item_count, r.passed_count, r.started_at, r.completed_at, "
      "(julianday(r.completed_at) - julianday(r.started_at)) * 86400000.0, r.cost_usd, r.tokens_in, r.tokens_out, " + best_pass_rate("e.id", 2) +
      " FROM experiments e LEFT JOIN runs r ON r.id = "
      "(SELECT id FROM runs WHERE experiment_id = e.id AND " + visible("tenant_id", 2) +
      " ORDER BY started_at DESC, id DESC LIMIT 1) "
      "WHERE e.project_id = ?1 AND " + visible("e.tenant_id", 2) + " ORDER BY e.name, e.id");
  query.bind(1, *project_id).bind(2, scope.tenant);
  std::vector<ExperimentSummary> out;
  while (query.step()) {
    ExperimentSummary experiment{std::string(query.text(0)), std::string(query.text(1)), std::string(query.text(2))};
    if (!query.is_null(3)) experiment.latest_run = read_run_summary(query, 3);
    experiment.best_pass_rate = query.optional_real(14);
    out.push_back(std::move(experiment));
  }
  return out;
}

std::optional<ExperimentInfo> SqliteStore::experiment(const Scope& scope, const std::string& experiment_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare(
      "SELECT e.id, e.name, p.name, e.tenant_id, " + best_pass_rate("e.id", 2) +
      " FROM experiments e JOIN projects p ON p.id = e.project_id WHERE e.id = ?1 AND " +
      visible("e.tenant_id", 2));
  query.bind(1, experiment_id).bind(2, scope.tenant);
  if (!query.step()) return std::nullopt;
  return ExperimentInfo{std::string(query.text(0)), std::string(query.text(1)), std::string(query.text(2)), query.optional_text(3),
                        query.optional_real(4)};
}

std::vector<RunSummary> SqliteStore::runs(const Scope& scope, const std::string& experiment_id, std::size_t limit) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare("SELECT " + std::string(kRunSummaryColumns) + " FROM runs WHERE experiment_id = ?1 AND " +
                                              visible("tenant_id", 3) + " ORDER BY started_at DESC, id DESC LIMIT ?2");
  query.bind(1, experiment_id).bind(2, static_cast<std::int64_t>(limit)).bind(3, scope.tenant);
  std::vector<RunSummary> out;
  while (query.step()) out.push_back(read_run_summary(query, 0));
  return out;
}

void SqliteStore::purge_items(std::string_view runs_sql, const std::string& key) {
  const std::string runs(runs_sql);
  for (const std::string& sql : {"DELETE FROM eval_results WHERE run_id IN (" + runs + ")",
                                 "DELETE FROM items WHERE run_id IN (" + runs + ")"}) {
    SqliteStatement statement = connection_.prepare(sql);
    statement.bind(1, key);
    statement.step();
  }
}

bool SqliteStore::delete_visible(std::string_view table, const std::string& id, const Scope& scope, std::string_view runs_sql) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement found = connection_.prepare("SELECT 1 FROM " + std::string(table) + " WHERE id = ?1 AND " + visible("tenant_id", 2));
  found.bind(1, id).bind(2, scope.tenant);
  if (!found.step()) return false;
  found.reset();
  const std::vector<std::filesystem::path> index_files = text_index_files(std::string(runs_sql), id);
  purge_items(runs_sql, id);
  SqliteStatement remove = connection_.prepare("DELETE FROM " + std::string(table) + " WHERE id = ?1");
  remove.bind(1, id);
  remove.step();
  transaction.commit();
  // Still under the lock: no search of these runs is between its look at the run and its ATTACH.
  remove_text_index_files(index_files);
  return true;
}

bool SqliteStore::delete_run(const Scope& scope, const std::string& run_id) { return delete_visible("runs", run_id, scope, "SELECT ?1"); }

bool SqliteStore::delete_experiment(const Scope& scope, const std::string& experiment_id) {
  return delete_visible("experiments", experiment_id, scope, "SELECT id FROM runs WHERE experiment_id = ?1");
}

bool SqliteStore::delete_project(const Scope& scope, const std::string& project_name) {
  std::optional<std::string> project_id;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    project_id = readable_project_id(scope, project_name);
  }
  // Found in the scope already: delete_visible's check sees it again (a project's own tenant, or shared).
  return project_id && delete_visible("projects", *project_id, scope,
                                      "SELECT r.id FROM runs r JOIN experiments e ON e.id = r.experiment_id WHERE e.project_id = ?1");
}

}  // namespace krino::core::store

namespace krino::core::store {

namespace {

constexpr std::string_view kKeyColumns = "id, name, role, tenant_id, created_at, disabled_at";

ApiKey read_key(const SqliteStatement& row) {
  return ApiKey{std::string(row.text(0)), std::string(row.text(1)), parse_role(row.text(2)).value_or(Role::viewer),
                row.optional_text(3), std::string(row.text(4)), row.optional_text(5)};
}

}  // namespace

ApiKey SqliteStore::create_key(const std::string& name, Role role, const std::optional<std::string>& tenant, const std::string& key_hash) {
  const std::lock_guard<std::mutex> lock(mutex_);
  ApiKey key{to_text(ids_.next()), name, role, tenant, utc_timestamp_now(), std::nullopt};
  SqliteStatement insert = connection_.prepare(
      "INSERT INTO api_keys (id, name, role, tenant_id, key_hash, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  insert.bind(1, key.id).bind(2, key.name).bind(3, role_name(role)).bind(4, tenant).bind(5, key_hash).bind(6, key.created_at);
  insert.step();
  return key;
}

std::optional<ApiKey> SqliteStore::key_by_hash(const std::string& key_hash) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare("SELECT " + std::string(kKeyColumns) + " FROM api_keys WHERE key_hash = ?1");
  query.bind(1, key_hash);
  if (!query.step()) return std::nullopt;
  return read_key(query);
}

// A tenant's admin sees only its tenant's keys: parameter `?param` NULL (unscoped) matches all.
std::string SqliteStore::own_key(int param) {
  const std::string p = "?" + std::to_string(param);
  return "(" + p + " IS NULL OR tenant_id = " + p + ")";
}

std::vector<ApiKey> SqliteStore::keys(const Scope& scope) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare("SELECT " + std::string(kKeyColumns) + " FROM api_keys WHERE " + own_key(1) + " ORDER BY id");
  query.bind(1, scope.tenant);
  std::vector<ApiKey> out;
  while (query.step()) out.push_back(read_key(query));
  return out;
}

bool SqliteStore::has_keys() {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare("SELECT EXISTS (SELECT 1 FROM api_keys)");
  query.step();
  return query.integer(0) != 0;
}

bool SqliteStore::disable_key(const Scope& scope, const std::string& key_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement update =
      connection_.prepare("UPDATE api_keys SET disabled_at = COALESCE(disabled_at, ?3) WHERE id = ?1 AND " + own_key(2));
  update.bind(1, key_id).bind(2, scope.tenant).bind(3, utc_timestamp_now());
  update.step();
  return sqlite3_changes(connection_.handle()) > 0;
}

bool SqliteStore::delete_key(const Scope& scope, const std::string& key_id) {
  return changed("DELETE FROM api_keys WHERE id = ?1 AND " + own_key(2), key_id, scope);
}

void SqliteStore::record_write(const AuditEntry& entry) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement insert = connection_.prepare(
      "INSERT INTO audit_log (id, at, key_id, tenant_id, method, path, status) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
  insert.bind(1, to_text(ids_.next())).bind(2, utc_timestamp_now()).bind(3, entry.key_id).bind(4, entry.tenant);
  insert.bind(5, entry.method).bind(6, entry.path).bind(7, static_cast<std::int64_t>(entry.status));
  insert.step();
}

}  // namespace krino::core::store
