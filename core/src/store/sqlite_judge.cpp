// SqliteStore's server judge: LLM connections, judge jobs split into page jobs, their results, and
// what agreement is computed from.
#include "krino/core/store/sqlite_store.hpp"

#include "krino/core/common/utc_time.hpp"

namespace krino::core::store {

namespace {

constexpr std::string_view kSqliteConnectionColumns =
    "id, name, tenant_id, provider, base_url, model, credential_ref, api_key_sealed, max_concurrency, timeout_ms, max_retries, "
    "requests_per_minute, created_at, updated_at";

LlmConnection read_sqlite_connection(const SqliteStatement& row) {
  LlmConnection connection;
  connection.id = row.text(0);
  connection.name = row.text(1);
  connection.tenant = row.optional_text(2);
  connection.provider = row.text(3);
  connection.base_url = row.text(4);
  connection.model = row.text(5);
  connection.credential_ref = row.optional_text(6);
  connection.api_key_sealed = row.optional_text(7);
  connection.max_concurrency = row.integer(8);
  connection.timeout_ms = row.integer(9);
  connection.max_retries = row.integer(10);
  connection.requests_per_minute = row.optional_integer(11);
  connection.created_at = row.text(12);
  connection.updated_at = row.text(13);
  return connection;
}

constexpr std::string_view kSqliteJudgeJobColumns =
    "id, run_id, tenant_id, connection_id, evaluator_name, config, status, previous_status, items_total, items_scored, items_failed, "
    "pages_total, pages_done, created_at, finished_at";

JudgeJob read_sqlite_judge_job(const SqliteStatement& row) {
  JudgeJob job;
  job.id = row.text(0);
  job.run_id = row.text(1);
  job.tenant = row.optional_text(2);
  job.connection_id = row.text(3);
  job.evaluator_name = row.text(4);
  job.config = row.text(5);
  job.status = row.text(6);
  job.previous_status = row.text(7);
  job.items_total = row.integer(8);
  job.items_scored = row.integer(9);
  job.items_failed = row.integer(10);
  job.pages_total = row.integer(11);
  job.pages_done = row.integer(12);
  job.created_at = row.text(13);
  job.finished_at = row.optional_text(14);
  return job;
}

}  // namespace

LlmConnection SqliteStore::create_llm_connection(const Scope& scope, const NewLlmConnection& connection) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement taken = connection_.prepare("SELECT 1 FROM llm_connections WHERE name = ?1 AND COALESCE(tenant_id, '') = COALESCE(?2, '')");
  taken.bind(1, connection.name).bind(2, scope.tenant);
  if (taken.step()) throw StoreError(StoreError::Kind::conflict, "an LLM connection named " + connection.name + " exists");
  LlmConnection made;
  static_cast<NewLlmConnection&>(made) = connection;
  made.id = to_text(ids_.next());
  made.tenant = scope.tenant;
  made.created_at = made.updated_at = utc_timestamp_now();
  SqliteStatement insert = connection_.prepare(
      "INSERT INTO llm_connections (" + std::string(kSqliteConnectionColumns) + ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13)");
  insert.bind(1, made.id).bind(2, made.name).bind(3, made.tenant).bind(4, made.provider).bind(5, made.base_url).bind(6, made.model);
  insert.bind(7, made.credential_ref).bind(8, made.api_key_sealed).bind(9, made.max_concurrency).bind(10, made.timeout_ms);
  insert.bind(11, made.max_retries).bind(12, made.requests_per_minute).bind(13, made.created_at);
  insert.step();
  transaction.commit();
  return made;
}

std::vector<LlmConnection> SqliteStore::llm_connections(const Scope& scope) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare("SELECT " + std::string(kSqliteConnectionColumns) + " FROM llm_connections WHERE " +
                                              visible("tenant_id", 1) + " ORDER BY name, id");
  query.bind(1, scope.tenant);
  std::vector<LlmConnection> out;
  while (query.step()) out.push_back(read_sqlite_connection(query));
  return out;
}

std::optional<LlmConnection> SqliteStore::llm_connection(const Scope& scope, const std::string& connection_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare("SELECT " + std::string(kSqliteConnectionColumns) + " FROM llm_connections WHERE id = ?1 AND " +
                                              visible("tenant_id", 2));
  query.bind(1, connection_id).bind(2, scope.tenant);
  if (!query.step()) return std::nullopt;
  return read_sqlite_connection(query);
}

std::optional<LlmConnection> SqliteStore::replace_llm_connection(const Scope& scope, const std::string& connection_id,
                                                                 const NewLlmConnection& connection) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement current = connection_.prepare("SELECT " + std::string(kSqliteConnectionColumns) + " FROM llm_connections WHERE id = ?1 AND " +
                                                visible("tenant_id", 2));
  current.bind(1, connection_id).bind(2, scope.tenant);
  if (!current.step()) return std::nullopt;
  LlmConnection updated = read_sqlite_connection(current);
  SqliteStatement taken = connection_.prepare(
      "SELECT 1 FROM llm_connections WHERE name = ?1 AND COALESCE(tenant_id, '') = COALESCE(?2, '') AND id <> ?3");
  taken.bind(1, connection.name).bind(2, updated.tenant).bind(3, connection_id);
  if (taken.step()) throw StoreError(StoreError::Kind::conflict, "an LLM connection named " + connection.name + " exists");
  const bool new_credential = connection.credential_ref || connection.api_key_sealed;
  const NewLlmConnection kept = updated;
  static_cast<NewLlmConnection&>(updated) = connection;
  if (!new_credential) {
    updated.credential_ref = kept.credential_ref;
    updated.api_key_sealed = kept.api_key_sealed;
  }
  updated.updated_at = utc_timestamp_now();
  SqliteStatement write = connection_.prepare(
      "UPDATE llm_connections SET name = ?2, provider = ?3, base_url = ?4, model = ?5, credential_ref = ?6, api_key_sealed = ?7, "
      "max_concurrency = ?8, timeout_ms = ?9, max_retries = ?10, requests_per_minute = ?11, updated_at = ?12 WHERE id = ?1");
  write.bind(1, connection_id).bind(2, updated.name).bind(3, updated.provider).bind(4, updated.base_url).bind(5, updated.model);
  write.bind(6, updated.credential_ref).bind(7, updated.api_key_sealed).bind(8, updated.max_concurrency).bind(9, updated.timeout_ms);
  write.bind(10, updated.max_retries).bind(11, updated.requests_per_minute).bind(12, updated.updated_at);
  write.step();
  transaction.commit();
  return updated;
}

bool SqliteStore::delete_llm_connection(const Scope& scope, const std::string& connection_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement remove = connection_.prepare("DELETE FROM llm_connections WHERE id = ?1 AND " + visible("tenant_id", 2));
  remove.bind(1, connection_id).bind(2, scope.tenant);
  remove.step();
  return sqlite3_changes(connection_.handle()) > 0;
}

JudgeJob SqliteStore::create_judge_job(const Scope& scope, const std::string& run_id, const NewJudgeJob& job) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement run = connection_.prepare("SELECT status, item_count, tenant_id FROM runs WHERE id = ?1 AND " + visible("tenant_id", 2));
  run.bind(1, run_id).bind(2, scope.tenant);
  if (!run.step()) throw StoreError(StoreError::Kind::not_found, "no run " + run_id);
  const RunStatus status = parse_status(run.text(0)).value_or(RunStatus::running);
  const std::int64_t items = run.integer(1);
  const std::optional<std::string> run_tenant = run.optional_text(2);
  if (!has_ended(status)) throw StoreError(StoreError::Kind::conflict, "run " + run_id + " is still RUNNING; only an ended run is judged");
  SqliteStatement connection = connection_.prepare("SELECT 1 FROM llm_connections WHERE id = ?1 AND " + visible("tenant_id", 2));
  connection.bind(1, job.connection_id).bind(2, scope.tenant);
  if (!connection.step()) throw StoreError(StoreError::Kind::not_found, "no LLM connection " + job.connection_id);
  std::string previous(status_name(status));
  if (status == RunStatus::evaluating) {
    SqliteStatement active = connection_.prepare("SELECT previous_status FROM judge_jobs WHERE run_id = ?1 ORDER BY id LIMIT 1");
    active.bind(1, run_id);
    previous = active.step() ? std::string(active.text(0)) : std::string("SUCCESS");
  }
  JudgeJob made;
  made.id = to_text(ids_.next());
  made.run_id = run_id;
  made.tenant = run_tenant;
  made.connection_id = job.connection_id;
  made.evaluator_name = job.evaluator_name;
  made.config = job.config;
  made.previous_status = previous;
  made.items_total = items;
  made.pages_total = (items + job.page_size - 1) / job.page_size;
  made.status = items == 0 ? "SUCCEEDED" : "QUEUED";
  made.created_at = utc_timestamp_now();
  if (items == 0) made.finished_at = made.created_at;
  SqliteStatement insert = connection_.prepare(
      "INSERT INTO judge_jobs (" + std::string(kSqliteJudgeJobColumns) +
      ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 0, 0, ?10, 0, ?11, ?12)");
  insert.bind(1, made.id).bind(2, run_id).bind(3, made.tenant).bind(4, made.connection_id).bind(5, made.evaluator_name).bind(6, made.config);
  insert.bind(7, made.status).bind(8, made.previous_status).bind(9, made.items_total).bind(10, made.pages_total).bind(11, made.created_at);
  insert.bind(12, made.finished_at);
  insert.step();
  if (items > 0) {
    SqliteStatement page = connection_.prepare(
        "INSERT INTO jobs (id, kind, tenant_id, group_id, payload, status, attempts, max_attempts, available_at, created_at) "
        "VALUES (?1, ?2, ?3, ?4, ?5, 'QUEUED', 0, ?6, 0, ?7)");
    for (std::int64_t from = 0; from < items; from += job.page_size) {
      page.bind(1, to_text(ids_.next())).bind(2, kJudgePageKind).bind(3, made.tenant).bind(4, made.id);
      page.bind(5, judge_page_payload(made.id, run_id, from, std::min(items, from + job.page_size) - 1));
      page.bind(6, job.max_attempts).bind(7, made.created_at);
      page.step();
      page.reset();
    }
    SqliteStatement evaluating = connection_.prepare("UPDATE runs SET status = 'EVALUATING' WHERE id = ?1");
    evaluating.bind(1, run_id);
    evaluating.step();
  }
  transaction.commit();
  return made;
}

std::optional<std::vector<JudgeJob>> SqliteStore::judge_jobs(const Scope& scope, const std::string& run_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement run = connection_.prepare("SELECT 1 FROM runs WHERE id = ?1 AND " + visible("tenant_id", 2));
  run.bind(1, run_id).bind(2, scope.tenant);
  if (!run.step()) return std::nullopt;
  SqliteStatement query = connection_.prepare("SELECT " + std::string(kSqliteJudgeJobColumns) + " FROM judge_jobs WHERE run_id = ?1 ORDER BY id");
  query.bind(1, run_id);
  std::vector<JudgeJob> out;
  while (query.step()) out.push_back(read_sqlite_judge_job(query));
  return out;
}

std::optional<JudgeJob> SqliteStore::judge_job(const std::string& judge_job_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare("SELECT " + std::string(kSqliteJudgeJobColumns) + " FROM judge_jobs WHERE id = ?1");
  query.bind(1, judge_job_id);
  if (!query.step()) return std::nullopt;
  return read_sqlite_judge_job(query);
}

std::vector<JudgeItem> SqliteStore::judge_items(const std::string& run_id, std::int64_t from_seq, std::int64_t to_seq) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare("SELECT id, seq, document FROM items WHERE run_id = ?1 AND seq BETWEEN ?2 AND ?3 ORDER BY seq");
  query.bind(1, run_id).bind(2, from_seq).bind(3, to_seq);
  std::vector<JudgeItem> out;
  while (query.step()) out.push_back(JudgeItem{std::string(query.text(0)), query.integer(1), std::string(query.text(2))});
  return out;
}

bool SqliteStore::record_judge_page(const std::string& job_id, const std::string& lease_token, const std::string& judge_job_id,
                                    std::span<const JudgeVerdict> verdicts) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement held = connection_.prepare("SELECT 1 FROM jobs WHERE id = ?1 AND lease_token = ?2 AND status = 'RUNNING'");
  held.bind(1, job_id).bind(2, lease_token);
  if (!held.step()) return false;  // the lease went to another worker: its judgments are the ones kept
  const std::string now = utc_timestamp_now();
  SqliteStatement done = connection_.prepare(
      "UPDATE jobs SET status = 'DONE', lease_owner = NULL, lease_until = NULL, finished_at = ?2 WHERE id = ?1");
  done.bind(1, job_id).bind(2, now);
  done.step();
  SqliteStatement judge = connection_.prepare("SELECT run_id, evaluator_name, pages_done, pages_total FROM judge_jobs WHERE id = ?1");
  judge.bind(1, judge_job_id);
  if (!judge.step()) {  // the run was deleted meanwhile
    transaction.commit();
    return true;
  }
  const std::string run_id(judge.text(0));
  const std::string evaluator(judge.text(1));
  const bool last_page = judge.integer(2) + 1 >= judge.integer(3);
  SqliteStatement result = connection_.prepare(
      "INSERT INTO judge_results (judge_job_id, item_id, seq, score, success, reason, error) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
      "ON CONFLICT (judge_job_id, item_id) DO NOTHING");
  SqliteStatement drop = connection_.prepare("DELETE FROM eval_results WHERE run_id = ?1 AND seq = ?2 AND name = ?3");
  SqliteStatement verdict = connection_.prepare(
      "INSERT INTO eval_results (run_id, seq, position, item_id, name, score, threshold, success) VALUES (?1, ?2, "
      "(SELECT COALESCE(MAX(position) + 1, 0) FROM eval_results WHERE run_id = ?1 AND seq = ?2), ?3, ?4, ?5, ?6, ?7)");
  // An item the judge could not score is an item with an error, as one the client reported: the run
  // page's error filter and its error count see it (a flag set once; the count moves with it).
  SqliteStatement flag = connection_.prepare("UPDATE items SET has_error = 1 WHERE run_id = ?1 AND seq = ?2 AND has_error = 0");
  std::int64_t scored = 0;
  std::int64_t failed = 0;
  std::int64_t newly_in_error = 0;
  for (const JudgeVerdict& item : verdicts) {
    result.bind(1, judge_job_id).bind(2, item.item_id).bind(3, item.seq).bind(4, item.score);
    result.bind(5, static_cast<std::int64_t>(item.success)).bind(6, item.reason).bind(7, item.error);
    result.step();
    result.reset();
    if (item.error) {
      ++failed;
      flag.bind(1, run_id).bind(2, item.seq);
      flag.step();
      flag.reset();
      newly_in_error += sqlite3_changes(connection_.handle());
      continue;
    }
    ++scored;
    drop.bind(1, run_id).bind(2, item.seq).bind(3, evaluator);
    drop.step();
    drop.reset();
    verdict.bind(1, run_id).bind(2, item.seq).bind(3, item.item_id).bind(4, evaluator).bind(5, item.score).bind(6, item.threshold);
    verdict.bind(7, static_cast<std::int64_t>(item.success));
    verdict.step();
    verdict.reset();
  }
  SqliteStatement progress = connection_.prepare(
      "UPDATE judge_jobs SET items_scored = items_scored + ?2, items_failed = items_failed + ?3, pages_done = pages_done + 1, "
      "status = CASE WHEN ?4 THEN (CASE WHEN items_scored + ?2 = 0 THEN 'FAILED' ELSE 'SUCCEEDED' END) ELSE 'RUNNING' END, "
      "finished_at = CASE WHEN ?4 THEN ?5 ELSE NULL END WHERE id = ?1");
  progress.bind(1, judge_job_id).bind(2, scored).bind(3, failed).bind(4, static_cast<std::int64_t>(last_page)).bind(5, now);
  progress.step();
  if (newly_in_error > 0) {
    SqliteStatement errors = connection_.prepare("UPDATE runs SET error_count = error_count + ?2 WHERE id = ?1");
    errors.bind(1, run_id).bind(2, newly_in_error);
    errors.step();
  }
  if (last_page) {
    SqliteStatement others = connection_.prepare("SELECT 1 FROM judge_jobs WHERE run_id = ?1 AND status IN ('QUEUED', 'RUNNING')");
    others.bind(1, run_id);
    if (!others.step()) {
      SqliteStatement back = connection_.prepare(
          "UPDATE runs SET status = (SELECT previous_status FROM judge_jobs WHERE id = ?2) WHERE id = ?1 AND status = 'EVALUATING'");
      back.bind(1, run_id).bind(2, judge_job_id);
      back.step();
      SqliteStatement stale = connection_.prepare("DELETE FROM run_evaluator_stats WHERE run_id = ?1");
      stale.bind(1, run_id);
      stale.step();
    }
  }
  transaction.commit();
  return true;
}

std::optional<std::vector<JudgeVerdict>> SqliteStore::judge_job_results(const Scope& scope, const std::string& run_id, const std::string& judge_job_id,
                                                                        std::int64_t after_seq, std::size_t limit) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement job = connection_.prepare(
      "SELECT 1 FROM judge_jobs j JOIN runs r ON r.id = j.run_id WHERE j.id = ?1 AND j.run_id = ?2 AND " + visible("r.tenant_id", 3));
  job.bind(1, judge_job_id).bind(2, run_id).bind(3, scope.tenant);
  if (!job.step()) return std::nullopt;
  SqliteStatement query = connection_.prepare(
      "SELECT item_id, seq, score, success, reason, error FROM judge_results WHERE judge_job_id = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3");
  query.bind(1, judge_job_id).bind(2, after_seq).bind(3, static_cast<std::int64_t>(limit));
  std::vector<JudgeVerdict> out;
  while (query.step()) {
    JudgeVerdict verdict;
    verdict.item_id = query.text(0);
    verdict.seq = query.integer(1);
    verdict.score = query.optional_real(2);
    verdict.success = query.integer(3) != 0;
    verdict.reason = query.optional_text(4);
    verdict.error = query.optional_text(5);
    out.push_back(std::move(verdict));
  }
  return out;
}

std::optional<AgreementInput> SqliteStore::agreement_input(const Scope& scope, const std::string& run_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement run = connection_.prepare("SELECT 1 FROM runs WHERE id = ?1 AND " + visible("tenant_id", 2));
  run.bind(1, run_id).bind(2, scope.tenant);
  if (!run.step()) return std::nullopt;
  AgreementInput input;
  SqliteStatement notes = connection_.prepare("SELECT item_id, principal, verdict, revision FROM annotations WHERE run_id = ?1 ORDER BY item_id, revision");
  notes.bind(1, run_id);
  while (notes.step())
    input.annotations.push_back(ItemAnnotation{std::string(notes.text(0)), std::string(notes.text(1)), std::string(notes.text(2)), notes.integer(3)});
  SqliteStatement verdicts = connection_.prepare(
      "SELECT v.item_id, v.name, v.success FROM eval_results v WHERE v.run_id = ?1 AND v.item_id IN (SELECT item_id FROM annotations WHERE run_id = ?1) "
      "ORDER BY v.seq, v.position");
  verdicts.bind(1, run_id);
  while (verdicts.step()) input.verdicts.push_back(ItemVerdict{std::string(verdicts.text(0)), std::string(verdicts.text(1)), verdicts.integer(2) != 0});
  return input;
}

}  // namespace krino::core::store
