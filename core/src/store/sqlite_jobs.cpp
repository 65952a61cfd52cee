// SqliteStore's generic job queue (job_types.hpp). One process owns the file, and each call is one
// IMMEDIATE transaction under the store's mutex: a claim can never hand one job to two workers.
#include "krino/core/store/sqlite_store.hpp"

#include "krino/core/common/utc_time.hpp"

namespace krino::core::store {

void SqliteStore::enqueue_jobs(std::span<const NewJob> jobs) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement insert = connection_.prepare(
      "INSERT INTO jobs (id, kind, tenant_id, group_id, payload, status, attempts, max_attempts, available_at, created_at) "
      "VALUES (?1, ?2, ?3, ?4, ?5, 'QUEUED', 0, ?6, ?7, ?8)");
  const std::string now = utc_timestamp_now();
  for (const NewJob& job : jobs) {
    insert.bind(1, to_text(ids_.next())).bind(2, job.kind).bind(3, job.tenant).bind(4, job.group_id).bind(5, job.payload);
    insert.bind(6, job.max_attempts).bind(7, job.available_at_ms).bind(8, now);
    insert.step();
    insert.reset();
  }
  transaction.commit();
}

std::optional<ClaimedJob> SqliteStore::claim_job(const std::string& owner, std::span<const std::string> kinds, std::int64_t now_ms,
                                                 std::int64_t lease_ms) {
  if (kinds.empty()) return std::nullopt;
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  std::string kind_list;
  for (std::size_t i = 0; i < kinds.size(); ++i) kind_list.append(i ? ", ?" : "?").append(std::to_string(i + 2));
  SqliteStatement pick = connection_.prepare(
      "SELECT id FROM jobs WHERE kind IN (" + kind_list + ") AND ((status = 'QUEUED' AND available_at <= ?1) OR "
      "(status = 'RUNNING' AND lease_until <= ?1)) ORDER BY available_at, id LIMIT 1");
  pick.bind(1, now_ms);
  for (std::size_t i = 0; i < kinds.size(); ++i) pick.bind(static_cast<int>(i + 2), kinds[i]);
  if (!pick.step()) return std::nullopt;
  const std::string id(pick.text(0));
  const std::string token = to_text(ids_.next());
  // A RUNNING job claimed again lost its worker: say so, unless that worker left a reason.
  SqliteStatement take = connection_.prepare(
      "UPDATE jobs SET last_error = CASE WHEN status = 'RUNNING' THEN 'the lease of ' || lease_owner || ' ran out' ELSE last_error END, "
      "status = 'RUNNING', attempts = attempts + 1, lease_owner = ?2, lease_token = ?3, lease_until = ?4 WHERE id = ?1");
  take.bind(1, id).bind(2, owner).bind(3, token).bind(4, now_ms + lease_ms);
  take.step();
  SqliteStatement read = connection_.prepare(
      "SELECT id, kind, payload, tenant_id, group_id, attempts, max_attempts, last_error FROM jobs WHERE id = ?1");
  read.bind(1, id);
  read.step();
  ClaimedJob job{std::string(read.text(0)), std::string(read.text(1)), std::string(read.text(2)), read.optional_text(3), read.optional_text(4),
                 read.integer(5), read.integer(6), token, read.optional_text(7), false};
  job.exhausted = job.attempts > job.max_attempts;
  transaction.commit();
  return job;
}

bool SqliteStore::renew_job_lease(const std::string& job_id, const std::string& lease_token, std::int64_t now_ms, std::int64_t lease_ms) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement renew = connection_.prepare("UPDATE jobs SET lease_until = ?3 WHERE id = ?1 AND lease_token = ?2 AND status = 'RUNNING'");
  renew.bind(1, job_id).bind(2, lease_token).bind(3, now_ms + lease_ms);
  renew.step();
  return sqlite3_changes(connection_.handle()) > 0;
}

bool SqliteStore::complete_job(const std::string& job_id, const std::string& lease_token) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement done = connection_.prepare(
      "UPDATE jobs SET status = 'DONE', lease_owner = NULL, lease_until = NULL, finished_at = ?3 "
      "WHERE id = ?1 AND lease_token = ?2 AND status = 'RUNNING'");
  done.bind(1, job_id).bind(2, lease_token).bind(3, utc_timestamp_now());
  done.step();
  return sqlite3_changes(connection_.handle()) > 0;
}

bool SqliteStore::retry_job(const std::string& job_id, const std::string& lease_token, const std::string& error, std::int64_t available_at_ms) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement again = connection_.prepare(
      "UPDATE jobs SET status = 'QUEUED', lease_owner = NULL, lease_until = NULL, last_error = ?3, available_at = ?4 "
      "WHERE id = ?1 AND lease_token = ?2 AND status = 'RUNNING'");
  again.bind(1, job_id).bind(2, lease_token).bind(3, error).bind(4, available_at_ms);
  again.step();
  return sqlite3_changes(connection_.handle()) > 0;
}

bool SqliteStore::fail_job(const std::string& job_id, const std::string& lease_token, const std::string& error) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement failed = connection_.prepare(
      "UPDATE jobs SET status = 'FAILED', lease_owner = NULL, lease_until = NULL, last_error = ?3, finished_at = ?4 "
      "WHERE id = ?1 AND lease_token = ?2 AND status = 'RUNNING'");
  failed.bind(1, job_id).bind(2, lease_token).bind(3, error).bind(4, utc_timestamp_now());
  failed.step();
  return sqlite3_changes(connection_.handle()) > 0;
}

JobQueueDepth SqliteStore::job_queue_depth() {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement count = connection_.prepare(
      "SELECT COALESCE(SUM(status = 'QUEUED'), 0), COALESCE(SUM(status = 'RUNNING'), 0), COALESCE(SUM(status = 'FAILED'), 0) FROM jobs");
  count.step();
  return JobQueueDepth{count.integer(0), count.integer(1), count.integer(2)};
}

}  // namespace krino::core::store
