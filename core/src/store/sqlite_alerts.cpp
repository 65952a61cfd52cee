// SqliteStore's regression alerts: webhooks, the check queue and the delivery log. One process owns
// the file, so a claim needs no SKIP LOCKED: the connection's mutex and BEGIN IMMEDIATE make it
// atomic; the lease columns still let a restarted server take over what a crashed one claimed.
#include "krino/core/store/sqlite_store.hpp"

#include "krino/core/common/utc_time.hpp"

#include <chrono>

namespace krino::core::store {

namespace {

constexpr std::string_view kSqliteWebhookColumns =
    "w.id, w.project_id, w.url, w.secret IS NOT NULL, w.enabled, w.tenant_id, w.created_at, w.updated_at";

AlertWebhook read_sqlite_webhook(const SqliteStatement& row) {
  AlertWebhook webhook;
  webhook.id = row.text(0);
  webhook.project_id = row.text(1);
  webhook.url = row.text(2);
  webhook.has_secret = row.integer(3) != 0;
  webhook.enabled = row.integer(4) != 0;
  webhook.tenant = row.optional_text(5);
  webhook.created_at = row.text(6);
  webhook.updated_at = row.text(7);
  return webhook;
}

std::int64_t sqlite_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

std::optional<ProjectRef> SqliteStore::project_by_id(const Scope& scope, const std::string& project_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare("SELECT id, name, tenant_id FROM projects WHERE id = ?1 AND " + visible("tenant_id", 2));
  query.bind(1, project_id).bind(2, scope.tenant);
  if (!query.step()) return std::nullopt;
  return ProjectRef{std::string(query.text(0)), std::string(query.text(1)), query.optional_text(2)};
}

std::optional<std::string> SqliteStore::visible_webhook_id(const Scope& scope, const std::string& project_id, const std::string& webhook_id) {
  SqliteStatement query = connection_.prepare(
      "SELECT w.id FROM alert_webhooks w JOIN projects p ON p.id = w.project_id WHERE w.id = ?1 AND w.project_id = ?2 AND " +
      visible("w.tenant_id", 3) + " AND " + visible("p.tenant_id", 3));
  query.bind(1, webhook_id).bind(2, project_id).bind(3, scope.tenant);
  if (!query.step()) return std::nullopt;
  return std::string(query.text(0));
}

AlertWebhook SqliteStore::create_webhook(const Scope& scope, const std::string& project_id, const NewWebhook& webhook) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement project = connection_.prepare("SELECT 1 FROM projects WHERE id = ?1 AND " + visible("tenant_id", 2));
  project.bind(1, project_id).bind(2, scope.tenant);
  if (!project.step()) throw StoreError(StoreError::Kind::not_found, "no project " + project_id);
  AlertWebhook made;
  made.id = to_text(ids_.next());
  made.project_id = project_id;
  made.url = webhook.url;
  made.has_secret = webhook.secret.has_value();
  made.enabled = webhook.enabled;
  made.tenant = scope.tenant;
  made.created_at = made.updated_at = utc_timestamp_now();
  SqliteStatement insert = connection_.prepare(
      "INSERT INTO alert_webhooks (id, project_id, tenant_id, url, secret, enabled, created_at, updated_at) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)");
  insert.bind(1, made.id).bind(2, project_id).bind(3, scope.tenant).bind(4, made.url).bind(5, webhook.secret);
  insert.bind(6, static_cast<std::int64_t>(made.enabled)).bind(7, made.created_at);
  insert.step();
  transaction.commit();
  return made;
}

std::optional<std::vector<AlertWebhook>> SqliteStore::webhooks(const Scope& scope, const std::string& project_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement project = connection_.prepare("SELECT 1 FROM projects WHERE id = ?1 AND " + visible("tenant_id", 2));
  project.bind(1, project_id).bind(2, scope.tenant);
  if (!project.step()) return std::nullopt;
  SqliteStatement query = connection_.prepare("SELECT " + std::string(kSqliteWebhookColumns) +
                                              " FROM alert_webhooks w WHERE w.project_id = ?1 AND " + visible("w.tenant_id", 2) +
                                              " ORDER BY w.id");
  query.bind(1, project_id).bind(2, scope.tenant);
  std::vector<AlertWebhook> out;
  while (query.step()) out.push_back(read_sqlite_webhook(query));
  return out;
}

std::optional<AlertWebhook> SqliteStore::webhook(const Scope& scope, const std::string& project_id, const std::string& webhook_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!visible_webhook_id(scope, project_id, webhook_id)) return std::nullopt;
  SqliteStatement query = connection_.prepare("SELECT " + std::string(kSqliteWebhookColumns) + " FROM alert_webhooks w WHERE w.id = ?1");
  query.bind(1, webhook_id);
  query.step();
  return read_sqlite_webhook(query);
}

std::optional<AlertWebhook> SqliteStore::update_webhook(const Scope& scope, const std::string& project_id, const std::string& webhook_id,
                                                        const WebhookChange& change) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  if (!visible_webhook_id(scope, project_id, webhook_id)) return std::nullopt;
  const char* secret_sql = change.secret_change == WebhookChange::Secret::keep ? "secret" : "?4";
  SqliteStatement update = connection_.prepare(std::string("UPDATE alert_webhooks SET url = ?2, enabled = ?3, secret = ") + secret_sql +
                                               ", updated_at = ?5 WHERE id = ?1");
  update.bind(1, webhook_id).bind(2, change.url).bind(3, static_cast<std::int64_t>(change.enabled)).bind(5, utc_timestamp_now());
  if (change.secret_change == WebhookChange::Secret::set) update.bind(4, change.secret);
  else update.bind_null(4);
  update.step();
  SqliteStatement query = connection_.prepare("SELECT " + std::string(kSqliteWebhookColumns) + " FROM alert_webhooks w WHERE w.id = ?1");
  query.bind(1, webhook_id);
  query.step();
  AlertWebhook updated = read_sqlite_webhook(query);
  transaction.commit();
  return updated;
}

bool SqliteStore::delete_webhook(const Scope& scope, const std::string& project_id, const std::string& webhook_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!visible_webhook_id(scope, project_id, webhook_id)) return false;
  SqliteStatement statement = connection_.prepare("DELETE FROM alert_webhooks WHERE id = ?1");
  statement.bind(1, webhook_id);
  statement.step();
  return sqlite3_changes(connection_.handle()) > 0;
}

AlertDelivery SqliteStore::read_delivery(const std::string& delivery_id) {
  SqliteStatement query = connection_.prepare(
      "SELECT id, webhook_id, run_id, payload, status, attempts, next_attempt_at, delivered_at, created_at FROM alert_deliveries "
      "WHERE id = ?1");
  query.bind(1, delivery_id);
  query.step();
  AlertDelivery delivery;
  delivery.id = query.text(0);
  delivery.webhook_id = query.text(1);
  delivery.run_id = query.text(2);
  delivery.payload = query.text(3);
  const std::string_view status = query.text(4);
  delivery.status = status == "DELIVERED" ? DeliveryStatus::delivered : status == "DEAD" ? DeliveryStatus::dead : DeliveryStatus::pending;
  delivery.attempts = query.integer(5);
  delivery.next_attempt_ms = query.optional_integer(6);
  delivery.delivered_ms = query.optional_integer(7);
  delivery.created_ms = query.integer(8);
  SqliteStatement attempts = connection_.prepare(
      "SELECT number, at, status_code, error FROM alert_delivery_attempts WHERE delivery_id = ?1 ORDER BY number");
  attempts.bind(1, delivery_id);
  while (attempts.step())
    delivery.attempt_log.push_back(
        DeliveryAttempt{attempts.integer(0), attempts.integer(1), attempts.optional_integer(2), attempts.optional_text(3)});
  return delivery;
}

std::optional<DeliveryPage> SqliteStore::deliveries(const Scope& scope, const std::string& project_id, const std::string& webhook_id,
                                                    std::size_t offset, std::size_t limit) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!visible_webhook_id(scope, project_id, webhook_id)) return std::nullopt;
  DeliveryPage page;
  SqliteStatement count = connection_.prepare("SELECT COUNT(*) FROM alert_deliveries WHERE webhook_id = ?1");
  count.bind(1, webhook_id);
  count.step();
  page.total = count.integer(0);
  SqliteStatement ids = connection_.prepare("SELECT id FROM alert_deliveries WHERE webhook_id = ?1 ORDER BY id DESC LIMIT ?2 OFFSET ?3");
  ids.bind(1, webhook_id).bind(2, static_cast<std::int64_t>(limit)).bind(3, static_cast<std::int64_t>(offset));
  std::vector<std::string> found;
  while (ids.step()) found.emplace_back(ids.text(0));
  for (const std::string& id : found) page.deliveries.push_back(read_delivery(id));
  return page;
}

std::optional<AlertDelivery> SqliteStore::redeliver(const Scope& scope, const std::string& project_id, const std::string& webhook_id,
                                                    const std::string& delivery_id, std::int64_t now_ms) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  if (!visible_webhook_id(scope, project_id, webhook_id)) return std::nullopt;
  SqliteStatement status = connection_.prepare("SELECT status FROM alert_deliveries WHERE id = ?1 AND webhook_id = ?2");
  status.bind(1, delivery_id).bind(2, webhook_id);
  if (!status.step()) return std::nullopt;
  if (status.text(0) != "DEAD")
    throw StoreError(StoreError::Kind::conflict, "delivery " + delivery_id + " is " + std::string(status.text(0)) + ", not DEAD");
  SqliteStatement update = connection_.prepare(
      "UPDATE alert_deliveries SET status = 'PENDING', attempts = 0, next_attempt_at = ?2, lease_owner = NULL, lease_until = NULL "
      "WHERE id = ?1");
  update.bind(1, delivery_id).bind(2, now_ms);
  update.step();
  AlertDelivery delivery = read_delivery(delivery_id);
  transaction.commit();
  return delivery;
}

void SqliteStore::queue_alert_check(const std::string& run_id) {
  SqliteStatement insert = connection_.prepare(
      "INSERT INTO alert_checks (run_id, queued_at) SELECT r.id, ?2 FROM runs r JOIN experiments e ON e.id = r.experiment_id "
      "WHERE r.id = ?1 AND EXISTS (SELECT 1 FROM alert_webhooks w WHERE w.project_id = e.project_id AND w.enabled <> 0) "
      "ON CONFLICT (run_id) DO NOTHING");
  insert.bind(1, run_id).bind(2, sqlite_now_ms());
  insert.step();
}

std::vector<AlertCheck> SqliteStore::claim_alert_checks(const std::string& owner, std::int64_t now_ms, std::int64_t lease_ms,
                                                        std::size_t limit) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement query = connection_.prepare(
      "SELECT c.run_id, r.experiment_id, r.tenant_id, c.claims FROM alert_checks c JOIN runs r ON r.id = c.run_id "
      "WHERE c.lease_until IS NULL OR c.lease_until <= ?1 ORDER BY c.queued_at, c.run_id LIMIT ?2");
  query.bind(1, now_ms).bind(2, static_cast<std::int64_t>(limit));
  std::vector<AlertCheck> claimed;
  while (query.step())
    claimed.push_back(AlertCheck{std::string(query.text(0)), std::string(query.text(1)), query.optional_text(2), query.integer(3) + 1});
  SqliteStatement lease = connection_.prepare(
      "UPDATE alert_checks SET lease_owner = ?2, lease_until = ?3, claims = claims + 1 WHERE run_id = ?1");
  for (const AlertCheck& check : claimed) {
    lease.bind(1, check.run_id).bind(2, owner).bind(3, now_ms + lease_ms);
    lease.step();
    lease.reset();
  }
  transaction.commit();
  return claimed;
}

std::size_t SqliteStore::finish_alert_check(const std::string& run_id, const std::string& owner, const std::optional<std::string>& payload,
                                            std::int64_t now_ms) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement remove = connection_.prepare("DELETE FROM alert_checks WHERE run_id = ?1 AND lease_owner = ?2");
  remove.bind(1, run_id).bind(2, owner);
  remove.step();
  if (sqlite3_changes(connection_.handle()) == 0) return 0;  // the lease went to another worker
  std::size_t queued = 0;
  if (payload) {
    // The webhooks the run's own tenant sees: a tenant's webhook on a shared project hears of its
    // tenant's runs only.
    SqliteStatement hooks = connection_.prepare(
        "SELECT w.id FROM runs r JOIN experiments e ON e.id = r.experiment_id JOIN alert_webhooks w ON w.project_id = e.project_id "
        "WHERE r.id = ?1 AND w.enabled <> 0 AND (w.tenant_id IS NULL OR w.tenant_id = r.tenant_id) ORDER BY w.id");
    hooks.bind(1, run_id);
    std::vector<std::string> webhook_ids;
    while (hooks.step()) webhook_ids.emplace_back(hooks.text(0));
    SqliteStatement insert = connection_.prepare(
        "INSERT INTO alert_deliveries (id, webhook_id, run_id, payload, status, attempts, next_attempt_at, created_at) "
        "VALUES (?1, ?2, ?3, ?4, 'PENDING', 0, ?5, ?5)");
    for (const std::string& webhook_id : webhook_ids) {
      insert.bind(1, to_text(ids_.next())).bind(2, webhook_id).bind(3, run_id).bind(4, *payload).bind(5, now_ms);
      insert.step();
      insert.reset();
      ++queued;
    }
  }
  transaction.commit();
  return queued;
}

std::vector<ClaimedDelivery> SqliteStore::claim_deliveries(const std::string& owner, std::int64_t now_ms, std::int64_t lease_ms,
                                                           std::size_t limit) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement query = connection_.prepare(
      "SELECT d.id, d.webhook_id, w.url, w.secret, d.payload, d.attempts FROM alert_deliveries d "
      "JOIN alert_webhooks w ON w.id = d.webhook_id WHERE d.status = 'PENDING' AND w.enabled <> 0 AND d.next_attempt_at <= ?1 "
      "AND (d.lease_until IS NULL OR d.lease_until <= ?1) ORDER BY d.next_attempt_at, d.id LIMIT ?2");
  query.bind(1, now_ms).bind(2, static_cast<std::int64_t>(limit));
  std::vector<ClaimedDelivery> claimed;
  while (query.step())
    claimed.push_back(ClaimedDelivery{std::string(query.text(0)), std::string(query.text(1)), std::string(query.text(2)),
                                      query.optional_text(3), std::string(query.text(4)), query.integer(5)});
  SqliteStatement lease = connection_.prepare("UPDATE alert_deliveries SET lease_owner = ?2, lease_until = ?3 WHERE id = ?1");
  for (const ClaimedDelivery& delivery : claimed) {
    lease.bind(1, delivery.id).bind(2, owner).bind(3, now_ms + lease_ms);
    lease.step();
    lease.reset();
  }
  transaction.commit();
  return claimed;
}

bool SqliteStore::record_attempt(const std::string& delivery_id, const std::string& owner, const AttemptOutcome& outcome) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  const char* status = outcome.next == AttemptOutcome::Next::delivered ? "DELIVERED"
                       : outcome.next == AttemptOutcome::Next::dead    ? "DEAD"
                                                                       : "PENDING";
  SqliteStatement update = connection_.prepare(
      "UPDATE alert_deliveries SET status = ?3, attempts = attempts + 1, next_attempt_at = ?4, delivered_at = ?5, "
      "lease_owner = NULL, lease_until = NULL WHERE id = ?1 AND lease_owner = ?2 AND status = 'PENDING'");
  update.bind(1, delivery_id).bind(2, owner).bind(3, std::string_view(status));
  if (outcome.next == AttemptOutcome::Next::retry) update.bind(4, outcome.next_attempt_ms);
  else update.bind_null(4);
  if (outcome.next == AttemptOutcome::Next::delivered) update.bind(5, outcome.at_ms);
  else update.bind_null(5);
  update.step();
  if (sqlite3_changes(connection_.handle()) == 0) return false;
  SqliteStatement log = connection_.prepare(
      "INSERT INTO alert_delivery_attempts (delivery_id, number, at, status_code, error) "
      "SELECT ?1, COALESCE(MAX(number), 0) + 1, ?2, ?3, ?4 FROM alert_delivery_attempts WHERE delivery_id = ?1");
  log.bind(1, delivery_id).bind(2, outcome.at_ms).bind(3, outcome.status_code).bind(4, outcome.error);
  log.step();
  transaction.commit();
  return true;
}

AlertQueueDepth SqliteStore::alert_queue_depth() {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare(
      "SELECT (SELECT COUNT(*) FROM alert_checks), (SELECT COUNT(*) FROM alert_deliveries WHERE status = 'PENDING'), "
      "(SELECT COUNT(*) FROM alert_deliveries WHERE status = 'DEAD')");
  query.step();
  return AlertQueueDepth{query.integer(0), query.integer(1), query.integer(2)};
}

}  // namespace krino::core::store
