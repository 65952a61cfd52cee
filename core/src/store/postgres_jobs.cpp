// PostgresStore's generic job queue (job_types.hpp). Replicas share one table: a claim picks the
// oldest claimable row with FOR UPDATE SKIP LOCKED and stamps its lease in the same statement, so
// two replicas never take one job, and neither waits for the other's row.
#include "krino/core/store/postgres_store.hpp"

#include "krino/core/common/utc_time.hpp"

namespace krino::core::store {

namespace {

// A text[] literal of `kinds` ({"a","b"}), passed as one parameter.
std::string pg_text_array(std::span<const std::string> kinds) {
  std::string out = "{";
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (i) out += ',';
    out += '"';
    for (const char c : kinds[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  out += '}';
  return out;
}

}  // namespace

void PostgresStore::enqueue_jobs(std::span<const NewJob> jobs) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  PgTransaction transaction(connection);
  for (const NewJob& job : jobs)
    connection.execute(
        "INSERT INTO jobs (id, kind, tenant_id, group_id, payload, status, attempts, max_attempts, available_at, created_at) "
        "VALUES ($1, $2, $3, $4, $5, 'QUEUED', 0, $6, $7, now())",
        PgParams().text(to_text(ids_.next())).text(job.kind).optional(job.tenant).optional(job.group_id).text(job.payload)
            .integer(job.max_attempts).integer(job.available_at_ms));
  transaction.commit();
}

std::optional<ClaimedJob> PostgresStore::claim_job(const std::string& owner, std::span<const std::string> kinds, std::int64_t now_ms,
                                                   std::int64_t lease_ms) {
  if (kinds.empty()) return std::nullopt;
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const std::string token = to_text(ids_.next());
  // In SET, `j.status` and `j.lease_owner` are the row's values before the update.
  const PgResult rows = connection.execute(
      "WITH due AS (SELECT id FROM jobs WHERE kind = ANY ($4::text[]) AND ((status = 'QUEUED' AND available_at <= $2::bigint) OR "
      "(status = 'RUNNING' AND lease_until <= $2::bigint)) ORDER BY available_at, id LIMIT 1 FOR UPDATE SKIP LOCKED) "
      "UPDATE jobs j SET last_error = CASE WHEN j.status = 'RUNNING' THEN 'the lease of ' || j.lease_owner || ' ran out' ELSE j.last_error END, "
      "status = 'RUNNING', attempts = j.attempts + 1, lease_owner = $1, lease_token = $5, lease_until = $2::bigint + $3::bigint "
      "FROM due WHERE j.id = due.id RETURNING j.id, j.kind, j.payload, j.tenant_id, j.group_id, j.attempts, j.max_attempts, j.last_error",
      PgParams().text(owner).integer(now_ms).integer(lease_ms).text(pg_text_array(kinds)).text(token));
  if (rows.rows() == 0) return std::nullopt;
  ClaimedJob job{std::string(rows.text(0, 0)), std::string(rows.text(0, 1)), std::string(rows.text(0, 2)), rows.optional_text(0, 3),
                 rows.optional_text(0, 4), rows.integer(0, 5), rows.integer(0, 6), token, rows.optional_text(0, 7), false};
  job.exhausted = job.attempts > job.max_attempts;
  return job;
}

bool PostgresStore::renew_job_lease(const std::string& job_id, const std::string& lease_token, std::int64_t now_ms, std::int64_t lease_ms) {
  PgPool::Lease lease = pool_.acquire();
  const PgResult rows = (*lease).execute(
      "UPDATE jobs SET lease_until = $3::bigint + $4::bigint WHERE id = $1 AND lease_token = $2 AND status = 'RUNNING' RETURNING id",
      PgParams().text(job_id).text(lease_token).integer(now_ms).integer(lease_ms));
  return rows.rows() > 0;
}

bool PostgresStore::complete_job(const std::string& job_id, const std::string& lease_token) {
  PgPool::Lease lease = pool_.acquire();
  const PgResult rows = (*lease).execute(
      "UPDATE jobs SET status = 'DONE', lease_owner = NULL, lease_until = NULL, finished_at = now() "
      "WHERE id = $1 AND lease_token = $2 AND status = 'RUNNING' RETURNING id",
      PgParams().text(job_id).text(lease_token));
  return rows.rows() > 0;
}

bool PostgresStore::retry_job(const std::string& job_id, const std::string& lease_token, const std::string& error, std::int64_t available_at_ms) {
  PgPool::Lease lease = pool_.acquire();
  const PgResult rows = (*lease).execute(
      "UPDATE jobs SET status = 'QUEUED', lease_owner = NULL, lease_until = NULL, last_error = $3, available_at = $4 "
      "WHERE id = $1 AND lease_token = $2 AND status = 'RUNNING' RETURNING id",
      PgParams().text(job_id).text(lease_token).text(error).integer(available_at_ms));
  return rows.rows() > 0;
}

bool PostgresStore::fail_job(const std::string& job_id, const std::string& lease_token, const std::string& error) {
  PgPool::Lease lease = pool_.acquire();
  const PgResult rows = (*lease).execute(
      "UPDATE jobs SET status = 'FAILED', lease_owner = NULL, lease_until = NULL, last_error = $3, finished_at = now() "
      "WHERE id = $1 AND lease_token = $2 AND status = 'RUNNING' RETURNING id",
      PgParams().text(job_id).text(lease_token).text(error));
  return rows.rows() > 0;
}

JobQueueDepth PostgresStore::job_queue_depth() {
  PgPool::Lease lease = pool_.acquire();
  const PgResult rows = (*lease).execute(
      "SELECT COUNT(*) FILTER (WHERE status = 'QUEUED'), COUNT(*) FILTER (WHERE status = 'RUNNING'), COUNT(*) FILTER (WHERE status = 'FAILED') "
      "FROM jobs");
  return JobQueueDepth{rows.integer(0, 0), rows.integer(0, 1), rows.integer(0, 2)};
}

}  // namespace krino::core::store
