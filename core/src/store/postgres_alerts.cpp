// PostgresStore's regression alerts: webhooks, the check queue and the delivery log. Several
// replicas share the queue: a claim locks the due rows it takes with FOR UPDATE SKIP LOCKED (rows
// another replica is claiming at that moment are passed over, not waited for) and stamps them with
// its owner and lease in the same statement, so no two replicas ever hold the same row.
#include "krino/core/store/postgres_store.hpp"

#include <chrono>

namespace krino::core::store {

namespace {

std::string alert_iso(std::string_view column) {
  return "to_char(" + std::string(column) + " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')";
}

std::string pg_webhook_columns() {
  return "w.id, w.project_id, w.url, w.secret IS NOT NULL, w.enabled, w.tenant_id, " + alert_iso("w.created_at") + ", " +
         alert_iso("w.updated_at");
}

AlertWebhook read_pg_webhook(const PgResult& rows, int row) {
  AlertWebhook webhook;
  webhook.id = rows.text(row, 0);
  webhook.project_id = rows.text(row, 1);
  webhook.url = rows.text(row, 2);
  webhook.has_secret = rows.boolean(row, 3);
  webhook.enabled = rows.boolean(row, 4);
  webhook.tenant = rows.optional_text(row, 5);
  webhook.created_at = rows.text(row, 6);
  webhook.updated_at = rows.text(row, 7);
  return webhook;
}

std::int64_t pg_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

std::optional<ProjectRef> PostgresStore::project_by_id(const Scope& scope, const std::string& project_id) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult row = connection.execute("SELECT id, name, tenant_id FROM projects WHERE id = $1 AND " + visible("tenant_id", 2),
                                           PgParams().text(project_id).optional(scope.tenant));
  if (row.rows() == 0) return std::nullopt;
  return ProjectRef{std::string(row.text(0, 0)), std::string(row.text(0, 1)), row.optional_text(0, 2)};
}

std::optional<std::string> PostgresStore::visible_webhook_id(PgConnection& connection, const Scope& scope, const std::string& project_id,
                                                             const std::string& webhook_id) {
  const PgResult row = connection.execute(
      "SELECT w.id FROM alert_webhooks w JOIN projects p ON p.id = w.project_id WHERE w.id = $1 AND w.project_id = $2 AND " +
          visible("w.tenant_id", 3) + " AND " + visible("p.tenant_id", 3),
      PgParams().text(webhook_id).text(project_id).optional(scope.tenant));
  if (row.rows() == 0) return std::nullopt;
  return std::string(row.text(0, 0));
}

AlertWebhook PostgresStore::create_webhook(const Scope& scope, const std::string& project_id, const NewWebhook& webhook) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  PgTransaction transaction(connection);
  // FOR SHARE: a project deleted meanwhile cannot leave the webhook without one.
  const PgResult project = connection.execute("SELECT 1 FROM projects WHERE id = $1 AND " + visible("tenant_id", 2) + " FOR SHARE",
                                               PgParams().text(project_id).optional(scope.tenant));
  if (project.rows() == 0) throw StoreError(StoreError::Kind::not_found, "no project " + project_id);
  const PgResult made = connection.execute(
      "INSERT INTO alert_webhooks AS w (id, project_id, tenant_id, url, secret, enabled, created_at, updated_at) "
      "VALUES ($1, $2, $3, $4, $5, $6, now(), now()) RETURNING " + pg_webhook_columns(),
      PgParams().text(to_text(ids_.next())).text(project_id).optional(scope.tenant).text(webhook.url).optional(webhook.secret).boolean(webhook.enabled));
  transaction.commit();
  return read_pg_webhook(made, 0);
}

std::optional<std::vector<AlertWebhook>> PostgresStore::webhooks(const Scope& scope, const std::string& project_id) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult project = connection.execute("SELECT 1 FROM projects WHERE id = $1 AND " + visible("tenant_id", 2),
                                               PgParams().text(project_id).optional(scope.tenant));
  if (project.rows() == 0) return std::nullopt;
  const PgResult rows = connection.execute(
      "SELECT " + pg_webhook_columns() + " FROM alert_webhooks w WHERE w.project_id = $1 AND " + visible("w.tenant_id", 2) + " ORDER BY w.id",
      PgParams().text(project_id).optional(scope.tenant));
  std::vector<AlertWebhook> out;
  for (int row = 0; row < rows.rows(); ++row) out.push_back(read_pg_webhook(rows, row));
  return out;
}

std::optional<AlertWebhook> PostgresStore::webhook(const Scope& scope, const std::string& project_id, const std::string& webhook_id) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  if (!visible_webhook_id(connection, scope, project_id, webhook_id)) return std::nullopt;
  const PgResult rows = connection.execute("SELECT " + pg_webhook_columns() + " FROM alert_webhooks w WHERE w.id = $1",
                                            PgParams().text(webhook_id));
  if (rows.rows() == 0) return std::nullopt;
  return read_pg_webhook(rows, 0);
}

std::optional<AlertWebhook> PostgresStore::update_webhook(const Scope& scope, const std::string& project_id, const std::string& webhook_id,
                                                          const WebhookChange& change) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  PgTransaction transaction(connection);
  if (!visible_webhook_id(connection, scope, project_id, webhook_id)) return std::nullopt;
  PgParams params;
  params.text(webhook_id).text(change.url).boolean(change.enabled);
  std::string secret_sql = "secret";
  if (change.secret_change != WebhookChange::Secret::keep) {
    secret_sql = "$4";
    if (change.secret_change == WebhookChange::Secret::set) params.text(change.secret);
    else params.null();
  }
  const PgResult rows = connection.execute("UPDATE alert_webhooks AS w SET url = $2, enabled = $3, secret = " + secret_sql +
                                                ", updated_at = now() WHERE w.id = $1 RETURNING " + pg_webhook_columns(),
                                            params);
  transaction.commit();
  if (rows.rows() == 0) return std::nullopt;
  return read_pg_webhook(rows, 0);
}

bool PostgresStore::delete_webhook(const Scope& scope, const std::string& project_id, const std::string& webhook_id) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  if (!visible_webhook_id(connection, scope, project_id, webhook_id)) return false;
  return connection.execute("DELETE FROM alert_webhooks WHERE id = $1 RETURNING id", PgParams().text(webhook_id)).rows() > 0;
}

AlertDelivery PostgresStore::read_delivery(PgConnection& connection, const std::string& delivery_id) {
  const PgResult row = connection.execute(
      "SELECT id, webhook_id, run_id, payload, status, attempts, next_attempt_at, delivered_at, created_at FROM alert_deliveries "
      "WHERE id = $1",
      PgParams().text(delivery_id));
  AlertDelivery delivery;
  delivery.id = row.text(0, 0);
  delivery.webhook_id = row.text(0, 1);
  delivery.run_id = row.text(0, 2);
  delivery.payload = row.text(0, 3);
  const std::string_view status = row.text(0, 4);
  delivery.status = status == "DELIVERED" ? DeliveryStatus::delivered : status == "DEAD" ? DeliveryStatus::dead : DeliveryStatus::pending;
  delivery.attempts = row.integer(0, 5);
  delivery.next_attempt_ms = row.optional_integer(0, 6);
  delivery.delivered_ms = row.optional_integer(0, 7);
  delivery.created_ms = row.integer(0, 8);
  const PgResult attempts = connection.execute(
      "SELECT number, at, status_code, error FROM alert_delivery_attempts WHERE delivery_id = $1 ORDER BY number", PgParams().text(delivery_id));
  for (int i = 0; i < attempts.rows(); ++i)
    delivery.attempt_log.push_back(
        DeliveryAttempt{attempts.integer(i, 0), attempts.integer(i, 1), attempts.optional_integer(i, 2), attempts.optional_text(i, 3)});
  return delivery;
}

std::optional<DeliveryPage> PostgresStore::deliveries(const Scope& scope, const std::string& project_id, const std::string& webhook_id,
                                                      std::size_t offset, std::size_t limit) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  if (!visible_webhook_id(connection, scope, project_id, webhook_id)) return std::nullopt;
  DeliveryPage page;
  page.total = connection.execute("SELECT COUNT(*) FROM alert_deliveries WHERE webhook_id = $1", PgParams().text(webhook_id)).integer(0, 0);
  const PgResult ids = connection.execute("SELECT id FROM alert_deliveries WHERE webhook_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3",
                                           PgParams()
                                               .text(webhook_id)
                                               .integer(static_cast<std::int64_t>(limit))
                                               .integer(static_cast<std::int64_t>(offset)));
  for (int row = 0; row < ids.rows(); ++row) page.deliveries.push_back(read_delivery(connection, std::string(ids.text(row, 0))));
  return page;
}

std::optional<AlertDelivery> PostgresStore::redeliver(const Scope& scope, const std::string& project_id, const std::string& webhook_id,
                                                      const std::string& delivery_id, std::int64_t now_ms) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  PgTransaction transaction(connection);
  if (!visible_webhook_id(connection, scope, project_id, webhook_id)) return std::nullopt;
  const PgResult status = connection.execute("SELECT status FROM alert_deliveries WHERE id = $1 AND webhook_id = $2 FOR UPDATE",
                                              PgParams().text(delivery_id).text(webhook_id));
  if (status.rows() == 0) return std::nullopt;
  if (status.text(0, 0) != "DEAD")
    throw StoreError(StoreError::Kind::conflict, "delivery " + delivery_id + " is " + std::string(status.text(0, 0)) + ", not DEAD");
  connection.execute(
      "UPDATE alert_deliveries SET status = 'PENDING', attempts = 0, next_attempt_at = $2, lease_owner = NULL, lease_until = NULL "
      "WHERE id = $1",
      PgParams().text(delivery_id).integer(now_ms));
  AlertDelivery delivery = read_delivery(connection, delivery_id);
  transaction.commit();
  return delivery;
}

void PostgresStore::queue_alert_check(PgConnection& connection, const std::string& run_id) {
  connection.execute(
      "INSERT INTO alert_checks (run_id, queued_at) SELECT r.id, $2 FROM runs r JOIN experiments e ON e.id = r.experiment_id "
      "WHERE r.id = $1 AND EXISTS (SELECT 1 FROM alert_webhooks w WHERE w.project_id = e.project_id AND w.enabled) "
      "ON CONFLICT (run_id) DO NOTHING",
      PgParams().text(run_id).integer(pg_now_ms()));
}

std::vector<AlertCheck> PostgresStore::claim_alert_checks(const std::string& owner, std::int64_t now_ms, std::int64_t lease_ms,
                                                          std::size_t limit) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult rows = connection.execute(
      "WITH due AS (SELECT run_id FROM alert_checks WHERE lease_until IS NULL OR lease_until <= $2::bigint "
      "ORDER BY queued_at, run_id LIMIT $4 FOR UPDATE SKIP LOCKED) "
      "UPDATE alert_checks c SET lease_owner = $1, lease_until = $2::bigint + $3::bigint, claims = c.claims + 1 FROM due, runs r "
      "WHERE c.run_id = due.run_id AND r.id = c.run_id RETURNING c.run_id, r.experiment_id, r.tenant_id, c.claims",
      PgParams().text(owner).integer(now_ms).integer(lease_ms).integer(static_cast<std::int64_t>(limit)));
  std::vector<AlertCheck> claimed;
  for (int row = 0; row < rows.rows(); ++row)
    claimed.push_back(AlertCheck{std::string(rows.text(row, 0)), std::string(rows.text(row, 1)), rows.optional_text(row, 2),
                                 rows.integer(row, 3)});
  return claimed;
}

std::size_t PostgresStore::finish_alert_check(const std::string& run_id, const std::string& owner, const std::optional<std::string>& payload,
                                              std::int64_t now_ms) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  PgTransaction transaction(connection);
  const PgResult removed = connection.execute("DELETE FROM alert_checks WHERE run_id = $1 AND lease_owner = $2 RETURNING run_id",
                                               PgParams().text(run_id).text(owner));
  if (removed.rows() == 0) return 0;  // the lease went to another worker
  std::size_t queued = 0;
  if (payload) {
    // The webhooks the run's own tenant sees: a tenant's webhook on a shared project hears of its
    // tenant's runs only.
    const PgResult hooks = connection.execute(
        "SELECT w.id FROM runs r JOIN experiments e ON e.id = r.experiment_id JOIN alert_webhooks w ON w.project_id = e.project_id "
        "WHERE r.id = $1 AND w.enabled AND (w.tenant_id IS NULL OR w.tenant_id = r.tenant_id) ORDER BY w.id",
        PgParams().text(run_id));
    for (int row = 0; row < hooks.rows(); ++row) {
      connection.execute(
          "INSERT INTO alert_deliveries (id, webhook_id, run_id, payload, status, attempts, next_attempt_at, created_at) "
          "VALUES ($1, $2, $3, $4, 'PENDING', 0, $5, $5)",
          PgParams().text(to_text(ids_.next())).text(hooks.text(row, 0)).text(run_id).text(*payload).integer(now_ms));
      ++queued;
    }
  }
  transaction.commit();
  return queued;
}

std::vector<ClaimedDelivery> PostgresStore::claim_deliveries(const std::string& owner, std::int64_t now_ms, std::int64_t lease_ms,
                                                             std::size_t limit) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult rows = connection.execute(
      "WITH due AS (SELECT d.id FROM alert_deliveries d JOIN alert_webhooks w ON w.id = d.webhook_id "
      "WHERE d.status = 'PENDING' AND w.enabled AND d.next_attempt_at <= $2::bigint "
      "AND (d.lease_until IS NULL OR d.lease_until <= $2::bigint) ORDER BY d.next_attempt_at, d.id LIMIT $4 FOR UPDATE OF d SKIP LOCKED) "
      "UPDATE alert_deliveries d SET lease_owner = $1, lease_until = $2::bigint + $3::bigint FROM due, alert_webhooks w "
      "WHERE d.id = due.id AND w.id = d.webhook_id RETURNING d.id, d.webhook_id, w.url, w.secret, d.payload, d.attempts",
      PgParams().text(owner).integer(now_ms).integer(lease_ms).integer(static_cast<std::int64_t>(limit)));
  std::vector<ClaimedDelivery> claimed;
  for (int row = 0; row < rows.rows(); ++row)
    claimed.push_back(ClaimedDelivery{std::string(rows.text(row, 0)), std::string(rows.text(row, 1)), std::string(rows.text(row, 2)),
                                      rows.optional_text(row, 3), std::string(rows.text(row, 4)), rows.integer(row, 5)});
  return claimed;
}

bool PostgresStore::record_attempt(const std::string& delivery_id, const std::string& owner, const AttemptOutcome& outcome) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  PgTransaction transaction(connection);
  const char* status = outcome.next == AttemptOutcome::Next::delivered ? "DELIVERED"
                       : outcome.next == AttemptOutcome::Next::dead    ? "DEAD"
                                                                       : "PENDING";
  PgParams params;
  params.text(delivery_id).text(owner).text(status);
  if (outcome.next == AttemptOutcome::Next::retry) params.integer(outcome.next_attempt_ms);
  else params.null();
  if (outcome.next == AttemptOutcome::Next::delivered) params.integer(outcome.at_ms);
  else params.null();
  const PgResult updated = connection.execute(
      "UPDATE alert_deliveries SET status = $3, attempts = attempts + 1, next_attempt_at = $4::bigint, delivered_at = $5::bigint, "
      "lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2 AND status = 'PENDING' RETURNING id",
      params);
  if (updated.rows() == 0) return false;
  connection.execute(
      "INSERT INTO alert_delivery_attempts (delivery_id, number, at, status_code, error) "
      "SELECT $1::uuid, COALESCE(MAX(number), 0) + 1, $2, $3::integer, $4 FROM alert_delivery_attempts WHERE delivery_id = $1::uuid",
      PgParams().text(delivery_id).integer(outcome.at_ms).optional(outcome.status_code).optional(outcome.error));
  transaction.commit();
  return true;
}

AlertQueueDepth PostgresStore::alert_queue_depth() {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult row = connection.execute(
      "SELECT (SELECT COUNT(*) FROM alert_checks), (SELECT COUNT(*) FROM alert_deliveries WHERE status = 'PENDING'), "
      "(SELECT COUNT(*) FROM alert_deliveries WHERE status = 'DEAD')");
  return AlertQueueDepth{row.integer(0, 0), row.integer(0, 1), row.integer(0, 2)};
}

}  // namespace krino::core::store
