// PostgresStore's online evaluation of traces: trace eval rules, the jobs their matches queue (once
// per dedupe key, even when two replicas match one trace at once: the unique index decides), and
// the evaluations the workers write.
#include "krino/core/store/postgres_store.hpp"

#include <map>
#include <tuple>

namespace krino::core::store {

namespace {

std::string rule_iso(std::string_view column) {
  return "to_char(" + std::string(column) + " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')";
}

std::string pg_rule_columns() {
  return "id, name, tenant_id, project, span_name, attribute_key, attribute_value, target, connection_id, evaluator_name, config, "
         "sampling_rate, enabled, matched_count, enqueued_count, sampled_out_count, " + rule_iso("created_at") + ", " + rule_iso("updated_at");
}

TraceEvalRule read_pg_rule(const PgResult& rows, int row) {
  TraceEvalRule rule;
  rule.id = rows.text(row, 0);
  rule.name = rows.text(row, 1);
  rule.tenant = rows.optional_text(row, 2);
  rule.project = rows.optional_text(row, 3);
  rule.span_name = rows.optional_text(row, 4);
  rule.attribute_key = rows.optional_text(row, 5);
  rule.attribute_value = rows.optional_text(row, 6);
  rule.target = rows.text(row, 7);
  rule.connection_id = rows.text(row, 8);
  rule.evaluator_name = rows.text(row, 9);
  rule.config = rows.text(row, 10);
  rule.sampling_rate = rows.optional_real(row, 11).value_or(1.0);
  rule.enabled = rows.boolean(row, 12);
  rule.matched = rows.integer(row, 13);
  rule.enqueued = rows.integer(row, 14);
  rule.sampled_out = rows.integer(row, 15);
  rule.created_at = rows.text(row, 16);
  rule.updated_at = rows.text(row, 17);
  return rule;
}

// A rule's fields, name to enabled, as the next eleven parameters.
PgParams& rule_fields(PgParams& params, const NewTraceEvalRule& rule) {
  return params.text(rule.name).optional(rule.project).optional(rule.span_name).optional(rule.attribute_key).optional(rule.attribute_value)
      .text(rule.target).text(rule.connection_id).text(rule.evaluator_name).text(rule.config).real(rule.sampling_rate).boolean(rule.enabled);
}

void require_visible_connection(PgConnection& db, const std::string& visible_sql, const Scope& scope, const std::string& connection_id) {
  const PgResult found = db.execute("SELECT 1 FROM llm_connections WHERE id = $1 AND " + visible_sql, PgParams().text(connection_id).optional(scope.tenant));
  if (found.rows() == 0) throw StoreError(StoreError::Kind::not_found, "no LLM connection " + connection_id);
}

}  // namespace

TraceEvalRule PostgresStore::create_trace_eval_rule(const Scope& scope, const NewTraceEvalRule& rule) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& db = *lease;
  PgTransaction transaction(db);
  require_visible_connection(db, visible("tenant_id", 2), scope, rule.connection_id);
  const PgResult taken = db.execute("SELECT 1 FROM trace_eval_rules WHERE name = $1 AND COALESCE(tenant_id, '') = COALESCE($2::text, '')",
                                    PgParams().text(rule.name).optional(scope.tenant));
  if (taken.rows() > 0) throw StoreError(StoreError::Kind::conflict, "a trace eval rule named " + rule.name + " exists");
  PgParams params;
  params.text(to_text(ids_.next())).optional(scope.tenant);
  rule_fields(params, rule);
  // A second writer of the same name at the same moment fails on the unique index: a conflict too.
  const PgResult made = db.execute(
      "INSERT INTO trace_eval_rules (id, tenant_id, name, project, span_name, attribute_key, attribute_value, target, connection_id, "
      "evaluator_name, config, sampling_rate, enabled, created_at, updated_at) "
      "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now(), now()) RETURNING " + pg_rule_columns(),
      params);
  transaction.commit();
  return read_pg_rule(made, 0);
}

std::vector<TraceEvalRule> PostgresStore::trace_eval_rules(const Scope& scope) {
  PgPool::Lease lease = pool_.acquire();
  const PgResult rows = (*lease).execute("SELECT " + pg_rule_columns() + " FROM trace_eval_rules WHERE " + visible("tenant_id", 1) +
                                             " ORDER BY name, id",
                                         PgParams().optional(scope.tenant));
  std::vector<TraceEvalRule> out;
  for (int row = 0; row < rows.rows(); ++row) out.push_back(read_pg_rule(rows, row));
  return out;
}

std::optional<TraceEvalRule> PostgresStore::trace_eval_rule(const Scope& scope, const std::string& rule_id) {
  PgPool::Lease lease = pool_.acquire();
  const PgResult rows = (*lease).execute("SELECT " + pg_rule_columns() + " FROM trace_eval_rules WHERE id = $1 AND " + visible("tenant_id", 2),
                                         PgParams().text(rule_id).optional(scope.tenant));
  if (rows.rows() == 0) return std::nullopt;
  return read_pg_rule(rows, 0);
}

std::optional<TraceEvalRule> PostgresStore::replace_trace_eval_rule(const Scope& scope, const std::string& rule_id, const NewTraceEvalRule& rule) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& db = *lease;
  PgTransaction transaction(db);
  const PgResult current = db.execute("SELECT tenant_id FROM trace_eval_rules WHERE id = $1 AND " + visible("tenant_id", 2) + " FOR UPDATE",
                                      PgParams().text(rule_id).optional(scope.tenant));
  if (current.rows() == 0) return std::nullopt;
  require_visible_connection(db, visible("tenant_id", 2), scope, rule.connection_id);
  const PgResult taken = db.execute(
      "SELECT 1 FROM trace_eval_rules WHERE name = $1 AND COALESCE(tenant_id, '') = COALESCE($2::text, '') AND id <> $3",
      PgParams().text(rule.name).optional(current.optional_text(0, 0)).text(rule_id));
  if (taken.rows() > 0) throw StoreError(StoreError::Kind::conflict, "a trace eval rule named " + rule.name + " exists");
  PgParams params;
  params.text(rule_id);
  rule_fields(params, rule);
  const PgResult updated = db.execute(
      "UPDATE trace_eval_rules SET name = $2, project = $3, span_name = $4, attribute_key = $5, attribute_value = $6, target = $7, "
      "connection_id = $8, evaluator_name = $9, config = $10, sampling_rate = $11, enabled = $12, updated_at = now() WHERE id = $1 "
      "RETURNING " + pg_rule_columns(),
      params);
  transaction.commit();
  return read_pg_rule(updated, 0);
}

bool PostgresStore::delete_trace_eval_rule(const Scope& scope, const std::string& rule_id) {
  PgPool::Lease lease = pool_.acquire();
  const PgResult rows = (*lease).execute("DELETE FROM trace_eval_rules WHERE id = $1 AND " + visible("tenant_id", 2) + " RETURNING id",
                                         PgParams().text(rule_id).optional(scope.tenant));
  return rows.rows() > 0;
}

std::vector<TraceEvalRule> PostgresStore::enabled_trace_eval_rules(const std::optional<std::string>& tenant) {
  PgPool::Lease lease = pool_.acquire();
  const PgResult rows = (*lease).execute("SELECT " + pg_rule_columns() +
                                             " FROM trace_eval_rules WHERE enabled AND COALESCE(tenant_id, '') = COALESCE($1::text, '') ORDER BY id",
                                         PgParams().optional(tenant));
  std::vector<TraceEvalRule> out;
  for (int row = 0; row < rows.rows(); ++row) out.push_back(read_pg_rule(rows, row));
  return out;
}

OnlineEvalEnqueued PostgresStore::enqueue_online_evals(const std::optional<std::string>& tenant, std::span<const OnlineEvalMatch> matches,
                                                       std::int64_t max_attempts) {
  OnlineEvalEnqueued outcome;
  if (matches.empty()) return outcome;
  PgPool::Lease lease = pool_.acquire();
  PgConnection& db = *lease;
  PgTransaction transaction(db);
  // Per rule: matched, enqueued, sampled out; the counters are written once per rule, in id order
  // (two exports counting at once never wait on each other in a cycle).
  std::map<std::string, std::tuple<std::int64_t, std::int64_t, std::int64_t>> counts;
  for (const OnlineEvalMatch& match : matches) {
    auto& [matched, queued, sampled_out] = counts[match.rule_id];
    ++matched;
    if (!match.sampled) {
      ++sampled_out;
      ++outcome.sampled_out;
      continue;
    }
    const PgResult inserted = db.execute(
        "INSERT INTO jobs (id, kind, tenant_id, payload, status, attempts, max_attempts, available_at, created_at, dedupe_key) "
        "VALUES ($1, $2, $3, $4, 'QUEUED', 0, $5, $6, now(), $7) ON CONFLICT DO NOTHING RETURNING id",
        PgParams().text(to_text(ids_.next())).text(kOnlineEvalKind).optional(tenant).text(online_eval_payload(match)).integer(max_attempts)
            .integer(match.available_at_ms).text(online_eval_dedupe_key(match)));
    queued += inserted.rows();
    outcome.enqueued += inserted.rows();
  }
  for (const auto& [rule_id, figures] : counts)
    db.execute("UPDATE trace_eval_rules SET matched_count = matched_count + $2, enqueued_count = enqueued_count + $3, "
               "sampled_out_count = sampled_out_count + $4 WHERE id = $1",
               PgParams().text(rule_id).integer(std::get<0>(figures)).integer(std::get<1>(figures)).integer(std::get<2>(figures)));
  transaction.commit();
  return outcome;
}

bool PostgresStore::record_online_evaluation(const std::string& job_id, const std::string& lease_token, const std::optional<std::string>& tenant,
                                             const OnlineEvaluation& evaluation) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& db = *lease;
  PgTransaction transaction(db);
  const PgResult done = db.execute(
      "UPDATE jobs SET status = 'DONE', lease_owner = NULL, lease_until = NULL, finished_at = now() "
      "WHERE id = $1 AND lease_token = $2 AND status = 'RUNNING' RETURNING id",
      PgParams().text(job_id).text(lease_token));
  if (done.rows() == 0) return false;
  db.execute(
      "INSERT INTO online_evaluations (id, tenant, rule_id, rule_name, evaluator_name, trace_id, span_id, score, success, reason, error, "
      "cost_usd, judged_at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING",
      PgParams().text(to_text(ids_.next())).text(tenant.value_or(std::string())).text(evaluation.rule_id).text(evaluation.rule_name)
          .text(evaluation.evaluator_name).text(evaluation.trace_id).optional(evaluation.span_id).optional(evaluation.score)
          .boolean(evaluation.success).optional(evaluation.reason).optional(evaluation.error).optional(evaluation.cost_usd)
          .integer(evaluation.judged_at_ms));
  transaction.commit();
  return true;
}

std::vector<OnlineEvaluation> PostgresStore::online_evaluations(const Scope& scope, const std::string& trace_id) {
  PgPool::Lease lease = pool_.acquire();
  const PgResult rows = (*lease).execute(
      "SELECT rule_id, rule_name, evaluator_name, trace_id, span_id, score, success, reason, error, cost_usd, judged_at_ms "
      "FROM online_evaluations WHERE trace_id = $1 AND ($2::text IS NULL OR tenant = '' OR tenant = $2::text) ORDER BY judged_at_ms, id",
      PgParams().text(trace_id).optional(scope.tenant));
  std::vector<OnlineEvaluation> out;
  for (int row = 0; row < rows.rows(); ++row) {
    OnlineEvaluation one;
    one.rule_id = rows.text(row, 0);
    one.rule_name = rows.text(row, 1);
    one.evaluator_name = rows.text(row, 2);
    one.trace_id = rows.text(row, 3);
    one.span_id = rows.optional_text(row, 4);
    one.score = rows.optional_real(row, 5);
    one.success = rows.boolean(row, 6);
    one.reason = rows.optional_text(row, 7);
    one.error = rows.optional_text(row, 8);
    one.cost_usd = rows.optional_real(row, 9);
    one.judged_at_ms = rows.integer(row, 10);
    out.push_back(std::move(one));
  }
  return out;
}

}  // namespace krino::core::store
