// SqliteStore's online evaluation of traces: trace eval rules, the jobs their matches queue (once
// per dedupe key), and the evaluations the workers write.
#include "krino/core/store/sqlite_store.hpp"

#include "krino/core/common/utc_time.hpp"

#include <array>
#include <map>

namespace krino::core::store {

namespace {

constexpr std::string_view kSqliteRuleColumns =
    "id, name, tenant_id, project, span_name, attribute_key, attribute_value, target, connection_id, evaluator_name, config, "
    "sampling_rate, enabled, matched_count, enqueued_count, sampled_out_count, created_at, updated_at";

TraceEvalRule read_sqlite_rule(const SqliteStatement& row) {
  TraceEvalRule rule;
  rule.id = row.text(0);
  rule.name = row.text(1);
  rule.tenant = row.optional_text(2);
  rule.project = row.optional_text(3);
  rule.span_name = row.optional_text(4);
  rule.attribute_key = row.optional_text(5);
  rule.attribute_value = row.optional_text(6);
  rule.target = row.text(7);
  rule.connection_id = row.text(8);
  rule.evaluator_name = row.text(9);
  rule.config = row.text(10);
  rule.sampling_rate = row.real(11);
  rule.enabled = row.integer(12) != 0;
  rule.matched = row.integer(13);
  rule.enqueued = row.integer(14);
  rule.sampled_out = row.integer(15);
  rule.created_at = row.text(16);
  rule.updated_at = row.text(17);
  return rule;
}

// Binds a rule's fields as ?2 .. ?12 (name to enabled).
void bind_sqlite_rule_fields(SqliteStatement& statement, const NewTraceEvalRule& rule) {
  statement.bind(2, rule.name).bind(3, rule.project).bind(4, rule.span_name).bind(5, rule.attribute_key).bind(6, rule.attribute_value);
  statement.bind(7, rule.target).bind(8, rule.connection_id).bind(9, rule.evaluator_name).bind(10, rule.config);
  statement.bind(11, rule.sampling_rate).bind(12, static_cast<std::int64_t>(rule.enabled ? 1 : 0));
}

}  // namespace

TraceEvalRule SqliteStore::create_trace_eval_rule(const Scope& scope, const NewTraceEvalRule& rule) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement connection = connection_.prepare("SELECT 1 FROM llm_connections WHERE id = ?1 AND " + visible("tenant_id", 2));
  connection.bind(1, rule.connection_id).bind(2, scope.tenant);
  if (!connection.step()) throw StoreError(StoreError::Kind::not_found, "no LLM connection " + rule.connection_id);
  SqliteStatement taken = connection_.prepare("SELECT 1 FROM trace_eval_rules WHERE name = ?1 AND COALESCE(tenant_id, '') = COALESCE(?2, '')");
  taken.bind(1, rule.name).bind(2, scope.tenant);
  if (taken.step()) throw StoreError(StoreError::Kind::conflict, "a trace eval rule named " + rule.name + " exists");
  TraceEvalRule made;
  static_cast<NewTraceEvalRule&>(made) = rule;
  made.id = to_text(ids_.next());
  made.tenant = scope.tenant;
  made.created_at = made.updated_at = utc_timestamp_now();
  SqliteStatement insert = connection_.prepare(
      "INSERT INTO trace_eval_rules (" + std::string(kSqliteRuleColumns) +
      ") VALUES (?1, ?2, ?13, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, 0, 0, 0, ?14, ?14)");
  insert.bind(1, made.id);
  bind_sqlite_rule_fields(insert, made);
  insert.bind(13, made.tenant).bind(14, made.created_at);
  insert.step();
  transaction.commit();
  return made;
}

std::vector<TraceEvalRule> SqliteStore::trace_eval_rules(const Scope& scope) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare("SELECT " + std::string(kSqliteRuleColumns) + " FROM trace_eval_rules WHERE " +
                                              visible("tenant_id", 1) + " ORDER BY name, id");
  query.bind(1, scope.tenant);
  std::vector<TraceEvalRule> out;
  while (query.step()) out.push_back(read_sqlite_rule(query));
  return out;
}

std::optional<TraceEvalRule> SqliteStore::trace_eval_rule(const Scope& scope, const std::string& rule_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare("SELECT " + std::string(kSqliteRuleColumns) + " FROM trace_eval_rules WHERE id = ?1 AND " +
                                              visible("tenant_id", 2));
  query.bind(1, rule_id).bind(2, scope.tenant);
  if (!query.step()) return std::nullopt;
  return read_sqlite_rule(query);
}

std::optional<TraceEvalRule> SqliteStore::replace_trace_eval_rule(const Scope& scope, const std::string& rule_id, const NewTraceEvalRule& rule) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement current = connection_.prepare("SELECT tenant_id FROM trace_eval_rules WHERE id = ?1 AND " + visible("tenant_id", 2));
  current.bind(1, rule_id).bind(2, scope.tenant);
  if (!current.step()) return std::nullopt;
  const std::optional<std::string> tenant = current.optional_text(0);
  SqliteStatement connection = connection_.prepare("SELECT 1 FROM llm_connections WHERE id = ?1 AND " + visible("tenant_id", 2));
  connection.bind(1, rule.connection_id).bind(2, scope.tenant);
  if (!connection.step()) throw StoreError(StoreError::Kind::not_found, "no LLM connection " + rule.connection_id);
  SqliteStatement taken = connection_.prepare(
      "SELECT 1 FROM trace_eval_rules WHERE name = ?1 AND COALESCE(tenant_id, '') = COALESCE(?2, '') AND id <> ?3");
  taken.bind(1, rule.name).bind(2, tenant).bind(3, rule_id);
  if (taken.step()) throw StoreError(StoreError::Kind::conflict, "a trace eval rule named " + rule.name + " exists");
  SqliteStatement update = connection_.prepare(
      "UPDATE trace_eval_rules SET name = ?2, project = ?3, span_name = ?4, attribute_key = ?5, attribute_value = ?6, target = ?7, "
      "connection_id = ?8, evaluator_name = ?9, config = ?10, sampling_rate = ?11, enabled = ?12, updated_at = ?13 WHERE id = ?1");
  update.bind(1, rule_id);
  bind_sqlite_rule_fields(update, rule);
  update.bind(13, utc_timestamp_now());
  update.step();
  SqliteStatement read = connection_.prepare("SELECT " + std::string(kSqliteRuleColumns) + " FROM trace_eval_rules WHERE id = ?1");
  read.bind(1, rule_id);
  read.step();
  TraceEvalRule updated = read_sqlite_rule(read);
  transaction.commit();
  return updated;
}

bool SqliteStore::delete_trace_eval_rule(const Scope& scope, const std::string& rule_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement remove = connection_.prepare("DELETE FROM trace_eval_rules WHERE id = ?1 AND " + visible("tenant_id", 2));
  remove.bind(1, rule_id).bind(2, scope.tenant);
  remove.step();
  return sqlite3_changes(connection_.handle()) > 0;
}

std::vector<TraceEvalRule> SqliteStore::enabled_trace_eval_rules(const std::optional<std::string>& tenant) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare("SELECT " + std::string(kSqliteRuleColumns) +
                                              " FROM trace_eval_rules WHERE enabled = 1 AND COALESCE(tenant_id, '') = COALESCE(?1, '') ORDER BY id");
  query.bind(1, tenant);
  std::vector<TraceEvalRule> out;
  while (query.step()) out.push_back(read_sqlite_rule(query));
  return out;
}

OnlineEvalEnqueued SqliteStore::enqueue_online_evals(const std::optional<std::string>& tenant, std::span<const OnlineEvalMatch> matches,
                                                     std::int64_t max_attempts) {
  OnlineEvalEnqueued outcome;
  if (matches.empty()) return outcome;
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement insert = connection_.prepare(
      "INSERT INTO jobs (id, kind, tenant_id, payload, status, attempts, max_attempts, available_at, created_at, dedupe_key) "
      "VALUES (?1, ?2, ?3, ?4, 'QUEUED', 0, ?5, ?6, ?7, ?8) ON CONFLICT DO NOTHING");
  // Per rule: matched, enqueued, sampled out; one counter update per rule, not per match.
  std::map<std::string, std::array<std::int64_t, 3>> counts;
  const std::string now = utc_timestamp_now();
  for (const OnlineEvalMatch& match : matches) {
    auto& figures = counts[match.rule_id];
    ++figures[0];
    if (!match.sampled) {
      ++figures[2];
      ++outcome.sampled_out;
      continue;
    }
    insert.bind(1, to_text(ids_.next())).bind(2, kOnlineEvalKind).bind(3, tenant).bind(4, online_eval_payload(match));
    insert.bind(5, max_attempts).bind(6, match.available_at_ms).bind(7, now).bind(8, online_eval_dedupe_key(match));
    insert.step();
    insert.reset();
    const std::int64_t queued = sqlite3_changes(connection_.handle());
    figures[1] += queued;
    outcome.enqueued += queued;
  }
  SqliteStatement count = connection_.prepare(
      "UPDATE trace_eval_rules SET matched_count = matched_count + ?2, enqueued_count = enqueued_count + ?3, "
      "sampled_out_count = sampled_out_count + ?4 WHERE id = ?1");
  for (const auto& [rule_id, figures] : counts) {
    count.bind(1, rule_id).bind(2, figures[0]).bind(3, figures[1]).bind(4, figures[2]);
    count.step();
    count.reset();
  }
  transaction.commit();
  return outcome;
}

bool SqliteStore::record_online_evaluation(const std::string& job_id, const std::string& lease_token, const std::optional<std::string>& tenant,
                                           const OnlineEvaluation& evaluation) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement done = connection_.prepare(
      "UPDATE jobs SET status = 'DONE', lease_owner = NULL, lease_until = NULL, finished_at = ?3 "
      "WHERE id = ?1 AND lease_token = ?2 AND status = 'RUNNING'");
  done.bind(1, job_id).bind(2, lease_token).bind(3, utc_timestamp_now());
  done.step();
  if (sqlite3_changes(connection_.handle()) == 0) return false;
  SqliteStatement insert = connection_.prepare(
      "INSERT INTO online_evaluations (id, tenant, rule_id, rule_name, evaluator_name, trace_id, span_id, score, success, reason, error, "
      "cost_usd, judged_at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) ON CONFLICT DO NOTHING");
  insert.bind(1, to_text(ids_.next())).bind(2, tenant.value_or(std::string())).bind(3, evaluation.rule_id).bind(4, evaluation.rule_name);
  insert.bind(5, evaluation.evaluator_name).bind(6, evaluation.trace_id).bind(7, evaluation.span_id).bind(8, evaluation.score);
  insert.bind(9, static_cast<std::int64_t>(evaluation.success ? 1 : 0)).bind(10, evaluation.reason).bind(11, evaluation.error);
  insert.bind(12, evaluation.cost_usd).bind(13, evaluation.judged_at_ms);
  insert.step();
  transaction.commit();
  return true;
}

std::vector<OnlineEvaluation> SqliteStore::online_evaluations(const Scope& scope, const std::string& trace_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare(
      "SELECT rule_id, rule_name, evaluator_name, trace_id, span_id, score, success, reason, error, cost_usd, judged_at_ms "
      "FROM online_evaluations WHERE trace_id = ?1 AND (?2 IS NULL OR tenant = '' OR tenant = ?2) ORDER BY judged_at_ms, id");
  query.bind(1, trace_id).bind(2, scope.tenant);
  std::vector<OnlineEvaluation> out;
  while (query.step()) {
    OnlineEvaluation one;
    one.rule_id = query.text(0);
    one.rule_name = query.text(1);
    one.evaluator_name = query.text(2);
    one.trace_id = query.text(3);
    one.span_id = query.optional_text(4);
    one.score = query.optional_real(5);
    one.success = query.integer(6) != 0;
    one.reason = query.optional_text(7);
    one.error = query.optional_text(8);
    one.cost_usd = query.optional_real(9);
    one.judged_at_ms = query.integer(10);
    out.push_back(std::move(one));
  }
  return out;
}

}  // namespace krino::core::store
