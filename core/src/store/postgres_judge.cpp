// PostgresStore's server judge: LLM connections, judge jobs split into page jobs, their results, and
// what agreement is computed from. Pages of one judge job may be written by several replicas at
// once: each locks its page job (the fence) and then the judge job's row (the counters).
#include "krino/core/store/postgres_store.hpp"

#include "krino/core/common/utc_time.hpp"

namespace krino::core::store {

namespace {

std::string judge_iso(std::string_view column) {
  return "to_char(" + std::string(column) + " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')";
}

std::string pg_connection_columns() {
  return "id, name, tenant_id, provider, base_url, model, credential_ref, api_key_sealed, max_concurrency, timeout_ms, max_retries, "
         "requests_per_minute, " + judge_iso("created_at") + ", " + judge_iso("updated_at");
}

LlmConnection read_pg_connection(const PgResult& rows, int row) {
  LlmConnection connection;
  connection.id = rows.text(row, 0);
  connection.name = rows.text(row, 1);
  connection.tenant = rows.optional_text(row, 2);
  connection.provider = rows.text(row, 3);
  connection.base_url = rows.text(row, 4);
  connection.model = rows.text(row, 5);
  connection.credential_ref = rows.optional_text(row, 6);
  connection.api_key_sealed = rows.optional_text(row, 7);
  connection.max_concurrency = rows.integer(row, 8);
  connection.timeout_ms = rows.integer(row, 9);
  connection.max_retries = rows.integer(row, 10);
  connection.requests_per_minute = rows.optional_integer(row, 11);
  connection.created_at = rows.text(row, 12);
  connection.updated_at = rows.text(row, 13);
  return connection;
}

std::string pg_judge_job_columns() {
  return "id, run_id, tenant_id, connection_id, evaluator_name, config, status, previous_status, items_total, items_scored, items_failed, "
         "pages_total, pages_done, " + judge_iso("created_at") + ", " + judge_iso("finished_at");
}

JudgeJob read_pg_judge_job(const PgResult& rows, int row) {
  JudgeJob job;
  job.id = rows.text(row, 0);
  job.run_id = rows.text(row, 1);
  job.tenant = rows.optional_text(row, 2);
  job.connection_id = rows.text(row, 3);
  job.evaluator_name = rows.text(row, 4);
  job.config = rows.text(row, 5);
  job.status = rows.text(row, 6);
  job.previous_status = rows.text(row, 7);
  job.items_total = rows.integer(row, 8);
  job.items_scored = rows.integer(row, 9);
  job.items_failed = rows.integer(row, 10);
  job.pages_total = rows.integer(row, 11);
  job.pages_done = rows.integer(row, 12);
  job.created_at = rows.text(row, 13);
  job.finished_at = rows.optional_text(row, 14);
  return job;
}

PgParams& connection_fields(PgParams& params, const NewLlmConnection& connection) {
  return params.text(connection.name).text(connection.provider).text(connection.base_url).text(connection.model)
      .optional(connection.credential_ref).optional(connection.api_key_sealed).integer(connection.max_concurrency)
      .integer(connection.timeout_ms).integer(connection.max_retries).optional(connection.requests_per_minute);
}

}  // namespace

LlmConnection PostgresStore::create_llm_connection(const Scope& scope, const NewLlmConnection& connection) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& db = *lease;
  PgTransaction transaction(db);
  const PgResult taken = db.execute("SELECT 1 FROM llm_connections WHERE name = $1 AND COALESCE(tenant_id, '') = COALESCE($2::text, '')",
                                    PgParams().text(connection.name).optional(scope.tenant));
  if (taken.rows() > 0) throw StoreError(StoreError::Kind::conflict, "an LLM connection named " + connection.name + " exists");
  PgParams params;
  params.text(to_text(ids_.next())).optional(scope.tenant);
  connection_fields(params, connection);
  // A second writer of the same name at the same moment fails on the unique index: a conflict too.
  const PgResult made = db.execute(
      "INSERT INTO llm_connections (id, tenant_id, name, provider, base_url, model, credential_ref, api_key_sealed, max_concurrency, "
      "timeout_ms, max_retries, requests_per_minute, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now(), now()) "
      "RETURNING " + pg_connection_columns(),
      params);
  transaction.commit();
  return read_pg_connection(made, 0);
}

std::vector<LlmConnection> PostgresStore::llm_connections(const Scope& scope) {
  PgPool::Lease lease = pool_.acquire();
  const PgResult rows = (*lease).execute("SELECT " + pg_connection_columns() + " FROM llm_connections WHERE " + visible("tenant_id", 1) +
                                             " ORDER BY name, id",
                                         PgParams().optional(scope.tenant));
  std::vector<LlmConnection> out;
  for (int row = 0; row < rows.rows(); ++row) out.push_back(read_pg_connection(rows, row));
  return out;
}

std::optional<LlmConnection> PostgresStore::llm_connection(const Scope& scope, const std::string& connection_id) {
  PgPool::Lease lease = pool_.acquire();
  const PgResult rows = (*lease).execute("SELECT " + pg_connection_columns() + " FROM llm_connections WHERE id = $1 AND " + visible("tenant_id", 2),
                                         PgParams().text(connection_id).optional(scope.tenant));
  if (rows.rows() == 0) return std::nullopt;
  return read_pg_connection(rows, 0);
}

std::optional<LlmConnection> PostgresStore::replace_llm_connection(const Scope& scope, const std::string& connection_id,
                                                                   const NewLlmConnection& connection) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& db = *lease;
  PgTransaction transaction(db);
  const PgResult current = db.execute("SELECT tenant_id FROM llm_connections WHERE id = $1 AND " + visible("tenant_id", 2) + " FOR UPDATE",
                                      PgParams().text(connection_id).optional(scope.tenant));
  if (current.rows() == 0) return std::nullopt;
  const PgResult taken = db.execute(
      "SELECT 1 FROM llm_connections WHERE name = $1 AND COALESCE(tenant_id, '') = COALESCE($2::text, '') AND id <> $3",
      PgParams().text(connection.name).optional(current.optional_text(0, 0)).text(connection_id));
  if (taken.rows() > 0) throw StoreError(StoreError::Kind::conflict, "an LLM connection named " + connection.name + " exists");
  const bool new_credential = connection.credential_ref || connection.api_key_sealed;
  PgParams params;
  params.text(connection_id);
  connection_fields(params, connection);
  params.boolean(new_credential);
  const PgResult updated = db.execute(
      "UPDATE llm_connections SET name = $2, provider = $3, base_url = $4, model = $5, "
      "credential_ref = CASE WHEN $12::boolean THEN $6 ELSE credential_ref END, "
      "api_key_sealed = CASE WHEN $12::boolean THEN $7 ELSE api_key_sealed END, max_concurrency = $8, timeout_ms = $9, max_retries = $10, "
      "requests_per_minute = $11, updated_at = now() WHERE id = $1 RETURNING " + pg_connection_columns(),
      params);
  transaction.commit();
  return read_pg_connection(updated, 0);
}

bool PostgresStore::delete_llm_connection(const Scope& scope, const std::string& connection_id) {
  PgPool::Lease lease = pool_.acquire();
  const PgResult rows = (*lease).execute("DELETE FROM llm_connections WHERE id = $1 AND " + visible("tenant_id", 2) + " RETURNING id",
                                         PgParams().text(connection_id).optional(scope.tenant));
  return rows.rows() > 0;
}

JudgeJob PostgresStore::create_judge_job(const Scope& scope, const std::string& run_id, const NewJudgeJob& job) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& db = *lease;
  PgTransaction transaction(db);
  const RunStatus status = lock_run(db, scope, run_id);  // FOR UPDATE: judge jobs of one run start one at a time
  if (!has_ended(status)) throw StoreError(StoreError::Kind::conflict, "run " + run_id + " is still RUNNING; only an ended run is judged");
  const PgResult connection = db.execute("SELECT 1 FROM llm_connections WHERE id = $1 AND " + visible("tenant_id", 2),
                                         PgParams().text(job.connection_id).optional(scope.tenant));
  if (connection.rows() == 0) throw StoreError(StoreError::Kind::not_found, "no LLM connection " + job.connection_id);
  const PgResult run = db.execute("SELECT item_count, tenant_id FROM runs WHERE id = $1", PgParams().text(run_id));
  const std::int64_t items = run.integer(0, 0);
  std::string previous(status_name(status));
  if (status == RunStatus::evaluating) {
    const PgResult active = db.execute("SELECT previous_status FROM judge_jobs WHERE run_id = $1 ORDER BY id LIMIT 1", PgParams().text(run_id));
    previous = active.rows() > 0 ? std::string(active.text(0, 0)) : std::string("SUCCESS");
  }
  const std::string id = to_text(ids_.next());
  const std::int64_t pages = (items + job.page_size - 1) / job.page_size;
  const PgResult made = db.execute(
      "INSERT INTO judge_jobs (id, run_id, tenant_id, connection_id, evaluator_name, config, status, previous_status, items_total, pages_total, "
      "created_at, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now(), CASE WHEN $9::bigint = 0 THEN now() END) "
      "RETURNING " + pg_judge_job_columns(),
      PgParams().text(id).text(run_id).optional(run.optional_text(0, 1)).text(job.connection_id).text(job.evaluator_name).text(job.config)
          .text(items == 0 ? "SUCCEEDED" : "QUEUED").text(previous).integer(items).integer(pages));
  JudgeJob created = read_pg_judge_job(made, 0);
  if (items > 0) {
    for (std::int64_t from = 0; from < items; from += job.page_size)
      db.execute(
          "INSERT INTO jobs (id, kind, tenant_id, group_id, payload, status, attempts, max_attempts, available_at, created_at) "
          "VALUES ($1, $2, $3, $4, $5, 'QUEUED', 0, $6, 0, now())",
          PgParams().text(to_text(ids_.next())).text(kJudgePageKind).optional(created.tenant).text(id)
              .text(judge_page_payload(id, run_id, from, std::min(items, from + job.page_size) - 1)).integer(job.max_attempts));
    db.execute("UPDATE runs SET status = 'EVALUATING' WHERE id = $1", PgParams().text(run_id));
  }
  transaction.commit();
  return created;
}

std::optional<std::vector<JudgeJob>> PostgresStore::judge_jobs(const Scope& scope, const std::string& run_id) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& db = *lease;
  const PgResult run = db.execute("SELECT 1 FROM runs WHERE id = $1 AND " + visible("tenant_id", 2), PgParams().text(run_id).optional(scope.tenant));
  if (run.rows() == 0) return std::nullopt;
  const PgResult rows = db.execute("SELECT " + pg_judge_job_columns() + " FROM judge_jobs WHERE run_id = $1 ORDER BY id", PgParams().text(run_id));
  std::vector<JudgeJob> out;
  for (int row = 0; row < rows.rows(); ++row) out.push_back(read_pg_judge_job(rows, row));
  return out;
}

std::optional<JudgeJob> PostgresStore::judge_job(const std::string& judge_job_id) {
  PgPool::Lease lease = pool_.acquire();
  const PgResult rows = (*lease).execute("SELECT " + pg_judge_job_columns() + " FROM judge_jobs WHERE id = $1", PgParams().text(judge_job_id));
  if (rows.rows() == 0) return std::nullopt;
  return read_pg_judge_job(rows, 0);
}

std::vector<JudgeItem> PostgresStore::judge_items(const std::string& run_id, std::int64_t from_seq, std::int64_t to_seq) {
  PgPool::Lease lease = pool_.acquire();
  const PgResult rows = (*lease).execute("SELECT id, seq, document FROM items WHERE run_id = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq",
                                         PgParams().text(run_id).integer(from_seq).integer(to_seq));
  std::vector<JudgeItem> out;
  for (int row = 0; row < rows.rows(); ++row) out.push_back(JudgeItem{std::string(rows.text(row, 0)), rows.integer(row, 1), std::string(rows.text(row, 2))});
  return out;
}

bool PostgresStore::record_judge_page(const std::string& job_id, const std::string& lease_token, const std::string& judge_job_id,
                                      std::span<const JudgeVerdict> verdicts) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& db = *lease;
  PgTransaction transaction(db);
  // The fence: the page job's row, locked, still under this claim's token. A replica that took the
  // job over since has another token; one trying to take it now skips the locked row.
  const PgResult held = db.execute("SELECT 1 FROM jobs WHERE id = $1 AND lease_token = $2 AND status = 'RUNNING' FOR UPDATE",
                                   PgParams().text(job_id).text(lease_token));
  if (held.rows() == 0) return false;
  db.execute("UPDATE jobs SET status = 'DONE', lease_owner = NULL, lease_until = NULL, finished_at = now() WHERE id = $1", PgParams().text(job_id));
  const PgResult judge = db.execute("SELECT run_id, evaluator_name, pages_done, pages_total FROM judge_jobs WHERE id = $1 FOR UPDATE",
                                    PgParams().text(judge_job_id));
  if (judge.rows() == 0) {  // the run was deleted meanwhile
    transaction.commit();
    return true;
  }
  const std::string run_id(judge.text(0, 0));
  const std::string evaluator(judge.text(0, 1));
  const bool last_page = judge.integer(0, 2) + 1 >= judge.integer(0, 3);
  std::int64_t scored = 0;
  std::int64_t failed = 0;
  std::int64_t newly_in_error = 0;
  for (const JudgeVerdict& item : verdicts) {
    db.execute("INSERT INTO judge_results (judge_job_id, item_id, seq, score, success, reason, error) VALUES ($1, $2, $3, $4, $5, $6, $7) "
               "ON CONFLICT (judge_job_id, item_id) DO NOTHING",
               PgParams().text(judge_job_id).text(item.item_id).integer(item.seq).optional(item.score).boolean(item.success).optional(item.reason)
                   .optional(item.error));
    if (item.error) {
      // An item the judge could not score is an item with an error, as one the client reported:
      // the run page's error filter and its error count see it (a flag set once).
      ++failed;
      newly_in_error += db.execute("UPDATE items SET has_error = true WHERE run_id = $1 AND seq = $2 AND NOT has_error RETURNING seq",
                                   PgParams().text(run_id).integer(item.seq))
                            .rows();
      continue;
    }
    ++scored;
    db.execute("DELETE FROM eval_results WHERE run_id = $1 AND seq = $2 AND name = $3", PgParams().text(run_id).integer(item.seq).text(evaluator));
    db.execute("INSERT INTO eval_results (run_id, seq, position, item_id, name, score, threshold, success) VALUES ($1, $2, "
               "(SELECT COALESCE(MAX(position) + 1, 0) FROM eval_results WHERE run_id = $1 AND seq = $2), $3, $4, $5, $6, $7)",
               PgParams().text(run_id).integer(item.seq).text(item.item_id).text(evaluator).optional(item.score).optional(item.threshold)
                   .boolean(item.success));
  }
  db.execute(
      "UPDATE judge_jobs SET items_scored = items_scored + $2, items_failed = items_failed + $3, pages_done = pages_done + 1, "
      "status = CASE WHEN $4::boolean THEN (CASE WHEN items_scored + $2 = 0 THEN 'FAILED' ELSE 'SUCCEEDED' END) ELSE 'RUNNING' END, "
      "finished_at = CASE WHEN $4::boolean THEN now() END WHERE id = $1",
      PgParams().text(judge_job_id).integer(scored).integer(failed).boolean(last_page));
  if (newly_in_error > 0)
    db.execute("UPDATE runs SET error_count = error_count + $2 WHERE id = $1", PgParams().text(run_id).integer(newly_in_error));
  if (last_page) {
    const PgResult others = db.execute("SELECT 1 FROM judge_jobs WHERE run_id = $1 AND status IN ('QUEUED', 'RUNNING')", PgParams().text(run_id));
    if (others.rows() == 0) {
      db.execute("UPDATE runs SET status = (SELECT previous_status FROM judge_jobs WHERE id = $2) WHERE id = $1 AND status = 'EVALUATING'",
                 PgParams().text(run_id).text(judge_job_id));
      db.execute("DELETE FROM run_evaluator_stats WHERE run_id = $1", PgParams().text(run_id));
    }
  }
  transaction.commit();
  return true;
}

std::optional<std::vector<JudgeVerdict>> PostgresStore::judge_job_results(const Scope& scope, const std::string& run_id,
                                                                          const std::string& judge_job_id, std::int64_t after_seq,
                                                                          std::size_t limit) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& db = *lease;
  const PgResult job = db.execute("SELECT 1 FROM judge_jobs j JOIN runs r ON r.id = j.run_id WHERE j.id = $1 AND j.run_id = $2 AND " +
                                      visible("r.tenant_id", 3),
                                  PgParams().text(judge_job_id).text(run_id).optional(scope.tenant));
  if (job.rows() == 0) return std::nullopt;
  const PgResult rows = db.execute(
      "SELECT item_id, seq, score, success, reason, error FROM judge_results WHERE judge_job_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
      PgParams().text(judge_job_id).integer(after_seq).integer(static_cast<std::int64_t>(limit)));
  std::vector<JudgeVerdict> out;
  for (int row = 0; row < rows.rows(); ++row) {
    JudgeVerdict verdict;
    verdict.item_id = rows.text(row, 0);
    verdict.seq = rows.integer(row, 1);
    verdict.score = rows.optional_real(row, 2);
    verdict.success = rows.boolean(row, 3);
    verdict.reason = rows.optional_text(row, 4);
    verdict.error = rows.optional_text(row, 5);
    out.push_back(std::move(verdict));
  }
  return out;
}

std::optional<AgreementInput> PostgresStore::agreement_input(const Scope& scope, const std::string& run_id) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& db = *lease;
  const PgResult run = db.execute("SELECT 1 FROM runs WHERE id = $1 AND " + visible("tenant_id", 2), PgParams().text(run_id).optional(scope.tenant));
  if (run.rows() == 0) return std::nullopt;
  AgreementInput input;
  const PgResult notes = db.execute("SELECT item_id, principal, verdict, revision FROM annotations WHERE run_id = $1 ORDER BY item_id, revision",
                                    PgParams().text(run_id));
  for (int row = 0; row < notes.rows(); ++row)
    input.annotations.push_back(ItemAnnotation{std::string(notes.text(row, 0)), std::string(notes.text(row, 1)), std::string(notes.text(row, 2)),
                                               notes.integer(row, 3)});
  const PgResult verdicts = db.execute(
      "SELECT v.item_id, v.name, v.success FROM eval_results v WHERE v.run_id = $1 AND v.item_id IN (SELECT item_id FROM annotations WHERE run_id = $1) "
      "ORDER BY v.seq, v.position",
      PgParams().text(run_id));
  for (int row = 0; row < verdicts.rows(); ++row)
    input.verdicts.push_back(ItemVerdict{std::string(verdicts.text(row, 0)), std::string(verdicts.text(row, 1)), verdicts.boolean(row, 2)});
  return input;
}

}  // namespace krino::core::store
