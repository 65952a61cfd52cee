// PostgresStore's production traces: a batch of spans in one transaction, as multi-row INSERTs
// (ON CONFLICT DO NOTHING, which COPY cannot do: a span sent again is kept once), then the rows of
// every touched trace summed again from their spans in one statement.
#include "krino/core/store/postgres_store.hpp"

#include <set>
#include <utility>

namespace krino::core::store {

namespace {

constexpr std::size_t kSpanColumns = 18;
constexpr std::size_t kSpansPerStatement = 500;  // 9,000 parameters, well under libpq's 65,535

std::string pg_trace_tenant(const Scope& scope) { return scope.tenant.value_or(std::string()); }

// SQL for "the trace row `alias` is visible to the scope whose tenant is $param" (shared rows: '').
std::string pg_trace_visible(std::string_view alias, int param) {
  const std::string p = "$" + std::to_string(param) + "::text";
  const std::string c = std::string(alias) + ".tenant";
  return "(" + p + " IS NULL OR " + c + " = '' OR " + c + " = " + p + ")";
}

constexpr std::string_view kPgSummaryColumns =
    "t.trace_id, t.project, t.root_span_id, t.root_name, t.start_ns, t.end_ns, t.span_count, t.error_count, t.input, t.output, "
    "t.received_at_ms, t.tenant";

TraceSummary read_pg_summary(const PgResult& rows, int row) {
  TraceSummary summary;
  summary.trace_id = rows.text(row, 0);
  summary.project = rows.optional_text(row, 1);
  summary.root_span_id = rows.optional_text(row, 2);
  summary.root_name = rows.optional_text(row, 3);
  summary.start_ns = rows.integer(row, 4);
  summary.end_ns = rows.integer(row, 5);
  summary.span_count = rows.integer(row, 6);
  summary.error_count = rows.integer(row, 7);
  summary.input = rows.optional_text(row, 8);
  summary.output = rows.optional_text(row, 9);
  summary.received_at_ms = rows.integer(row, 10);
  return summary;
}

std::string span_insert_sql(std::size_t rows) {
  std::string sql =
      "INSERT INTO spans (tenant, trace_id, span_id, parent_span_id, name, kind, start_ns, end_ns, status_code, status_message, "
      "attributes, events, resource, scope_name, scope_version, project, input, output) VALUES ";
  for (std::size_t row = 0; row < rows; ++row) {
    sql.append(row == 0 ? "(" : ",(");
    for (std::size_t column = 0; column < kSpanColumns; ++column) {
      if (column > 0) sql.append(",");
      sql.append("$").append(std::to_string(row * kSpanColumns + column + 1));
    }
    sql.append(")");
  }
  sql.append(" ON CONFLICT DO NOTHING RETURNING 1");
  return sql;
}

// The rows of the traces in the text array $2 (of tenant $1), from all their spans: the root is the
// earliest span without a parent; the project the earliest span's that names one.
constexpr std::string_view kPgSumTraces = R"sql(
INSERT INTO traces (tenant, trace_id, project, root_span_id, root_name, start_ns, end_ns, span_count, error_count, input, output, received_at_ms)
SELECT s.tenant, s.trace_id,
  (SELECT p.project FROM spans p WHERE p.tenant = s.tenant AND p.trace_id = s.trace_id AND p.project IS NOT NULL ORDER BY p.start_ns, p.span_id LIMIT 1),
  root.span_id, root.name, s.start_ns, s.end_ns, s.span_count, s.error_count, root.input, root.output, $3
FROM (SELECT tenant, trace_id, MIN(start_ns) AS start_ns, MAX(end_ns) AS end_ns, COUNT(*) AS span_count,
             SUM(CASE WHEN status_code = 2 THEN 1 ELSE 0 END) AS error_count
      FROM spans WHERE tenant = $1 AND trace_id = ANY($2::text[]) GROUP BY tenant, trace_id) s
LEFT JOIN LATERAL (SELECT r.span_id, r.name, r.input, r.output FROM spans r
                   WHERE r.tenant = s.tenant AND r.trace_id = s.trace_id AND r.parent_span_id = ''
                   ORDER BY r.start_ns, r.span_id LIMIT 1) root ON true
ON CONFLICT (tenant, trace_id) DO UPDATE SET project = excluded.project, root_span_id = excluded.root_span_id,
  root_name = excluded.root_name, start_ns = excluded.start_ns, end_ns = excluded.end_ns, span_count = excluded.span_count,
  error_count = excluded.error_count, input = excluded.input, output = excluded.output, received_at_ms = excluded.received_at_ms
)sql";

// A PostgreSQL text array literal of hex ids (no quoting needed: hex digits only).
std::string id_array(const std::set<std::string>& ids) {
  std::string out = "{";
  for (const std::string& id : ids) {
    if (out.size() > 1) out += ',';
    out += id;
  }
  out += '}';
  return out;
}

}  // namespace

SpanIngestOutcome PostgresStore::add_spans(const Scope& scope, std::span<const SpanRecord> spans, std::int64_t received_at_ms) {
  const std::string tenant = pg_trace_tenant(scope);
  SpanIngestOutcome outcome;
  std::set<std::string> touched;
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  for (const SpanRecord& span : spans) touched.insert(span.trace_id);
  PgTransaction transaction(connection);
  // Each trace's row is summed from its spans: two batches of one trace summing at once, each
  // blind to the other's uncommitted spans, would leave a row short. A lock per trace (taken in
  // id order, so two batches never wait on each other in a cycle) makes them take turns.
  if (!touched.empty())
    connection.execute("SELECT pg_advisory_xact_lock(hashtextextended($1 || ':' || id, 0)) FROM unnest($2::text[]) AS id ORDER BY id",
                       PgParams().text(tenant).text(id_array(touched)));
  for (std::size_t first = 0; first < spans.size(); first += kSpansPerStatement) {
    const std::size_t count = std::min(kSpansPerStatement, spans.size() - first);
    PgParams params;
    for (const SpanRecord& span : spans.subspan(first, count)) {
      params.text(tenant).text(span.trace_id).text(span.span_id).text(span.parent_span_id).text(span.name).integer(span.kind);
      params.integer(span.start_ns).integer(span.end_ns).integer(span.status_code).text(span.status_message).text(span.attributes);
      params.text(span.events).text(span.resource).text(span.scope_name).text(span.scope_version).optional(span.project);
      params.optional(span.input).optional(span.output);
    }
    const PgResult inserted = connection.execute(span_insert_sql(count), params);
    outcome.stored += static_cast<std::size_t>(inserted.rows());
    outcome.duplicates += count - static_cast<std::size_t>(inserted.rows());
  }
  if (!touched.empty())
    connection.execute(kPgSumTraces, PgParams().text(tenant).text(id_array(touched)).integer(received_at_ms));
  transaction.commit();
  outcome.traces = touched.size();
  return outcome;
}

TracePage PostgresStore::traces(const Scope& scope, const TraceFilter& filter) {
  PgParams params;
  params.optional(scope.tenant);
  // Columns 12 and 13: the trace's online evaluations, and those that did not pass (an index range each).
  std::string sql = "SELECT " + std::string(kPgSummaryColumns) +
                    ", (SELECT count(*) FROM online_evaluations e WHERE e.tenant = t.tenant AND e.trace_id = t.trace_id), "
                    "(SELECT count(*) FROM online_evaluations e WHERE e.tenant = t.tenant AND e.trace_id = t.trace_id AND NOT e.success) "
                    "FROM traces t WHERE " + pg_trace_visible("t", 1);
  const auto next = [&params]() { return "$" + std::to_string(params.size() + 1); };
  if (filter.project) {
    sql += " AND t.project = " + next();
    params.text(*filter.project);
  }
  if (filter.root_name) {
    sql += " AND t.root_name = " + next();
    params.text(*filter.root_name);
  }
  if (filter.start_from_ns) {
    sql += " AND t.start_ns >= " + next();
    params.integer(*filter.start_from_ns);
  }
  if (filter.start_before_ns) {
    sql += " AND t.start_ns < " + next();
    params.integer(*filter.start_before_ns);
  }
  if (filter.errors_only) sql += " AND t.error_count > 0";
  if (filter.after_start_ns && filter.after_trace_id) {
    const std::string start = next();
    params.integer(*filter.after_start_ns);
    const std::string id = next();
    params.text(*filter.after_trace_id);
    sql += " AND (t.start_ns, t.trace_id) < (" + start + "::bigint, " + id + "::text)";
  }
  sql += " ORDER BY t.start_ns DESC, t.trace_id DESC LIMIT " + next();
  params.integer(static_cast<std::int64_t>(filter.limit + 1));
  PgPool::Lease lease = pool_.acquire();
  const PgResult rows = (*lease).execute(sql, params);
  TracePage page;
  for (int row = 0; row < rows.rows(); ++row) {
    page.traces.push_back(read_pg_summary(rows, row));
    page.traces.back().evaluation_count = rows.integer(row, 12);
    page.traces.back().failed_evaluation_count = rows.integer(row, 13);
  }
  if (page.traces.size() > filter.limit) {
    page.traces.pop_back();
    page.more = true;
  }
  return page;
}

std::optional<StoredTrace> PostgresStore::trace(const Scope& scope, const std::string& trace_id) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  const PgResult head = connection.execute("SELECT " + std::string(kPgSummaryColumns) + " FROM traces t WHERE t.trace_id = $2 AND " +
                                               pg_trace_visible("t", 1) + " ORDER BY t.tenant IS NOT DISTINCT FROM $1::text DESC LIMIT 1",
                                           PgParams().optional(scope.tenant).text(trace_id));
  if (head.rows() == 0) return std::nullopt;
  StoredTrace out;
  out.summary = read_pg_summary(head, 0);
  const PgResult spans = connection.execute(
      "SELECT trace_id, span_id, parent_span_id, name, kind, start_ns, end_ns, status_code, status_message, attributes, events, "
      "resource, scope_name, scope_version, project, input, output FROM spans WHERE tenant = $1 AND trace_id = $2 "
      "ORDER BY start_ns, span_id",
      PgParams().text(head.text(0, 11)).text(trace_id));
  for (int row = 0; row < spans.rows(); ++row) {
    SpanRecord span;
    span.trace_id = spans.text(row, 0);
    span.span_id = spans.text(row, 1);
    span.parent_span_id = spans.text(row, 2);
    span.name = spans.text(row, 3);
    span.kind = static_cast<int>(spans.integer(row, 4));
    span.start_ns = spans.integer(row, 5);
    span.end_ns = spans.integer(row, 6);
    span.status_code = static_cast<int>(spans.integer(row, 7));
    span.status_message = spans.text(row, 8);
    span.attributes = spans.text(row, 9);
    span.events = spans.text(row, 10);
    span.resource = spans.text(row, 11);
    span.scope_name = spans.text(row, 12);
    span.scope_version = spans.text(row, 13);
    span.project = spans.optional_text(row, 14);
    span.input = spans.optional_text(row, 15);
    span.output = spans.optional_text(row, 16);
    out.spans.push_back(std::move(span));
  }
  return out;
}

std::size_t PostgresStore::delete_traces_received_before(std::int64_t cutoff_ms, std::size_t limit) {
  PgPool::Lease lease = pool_.acquire();
  PgConnection& connection = *lease;
  PgTransaction transaction(connection);
  // SKIP LOCKED: two replicas sweeping at once take different traces.
  const PgResult doomed = connection.execute(
      "DELETE FROM traces WHERE (tenant, trace_id) IN (SELECT tenant, trace_id FROM traces WHERE received_at_ms < $1 "
      "ORDER BY received_at_ms LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING tenant, trace_id",
      PgParams().integer(cutoff_ms).integer(static_cast<std::int64_t>(limit)));
  for (int row = 0; row < doomed.rows(); ++row) {
    connection.execute("DELETE FROM spans WHERE tenant = $1 AND trace_id = $2", PgParams().text(doomed.text(row, 0)).text(doomed.text(row, 1)));
    connection.execute("DELETE FROM online_evaluations WHERE tenant = $1 AND trace_id = $2",
                       PgParams().text(doomed.text(row, 0)).text(doomed.text(row, 1)));
  }
  transaction.commit();
  return static_cast<std::size_t>(doomed.rows());
}

}  // namespace krino::core::store
