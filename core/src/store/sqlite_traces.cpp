// SqliteStore's production traces: a batch of spans in one IMMEDIATE transaction through one
// prepared statement reused row after row (ON CONFLICT DO NOTHING: a span sent again is kept once),
// then each touched trace's row summed again from its spans, so the row is right whatever order
// and however often the spans arrive.
#include "krino/core/store/sqlite_store.hpp"

#include <set>
#include <utility>

namespace krino::core::store {

namespace {

// Shared rows have tenant '' (a primary key column cannot be NULL).
std::string trace_tenant(const Scope& scope) { return scope.tenant.value_or(std::string()); }

// SQL for "the trace row `alias` is visible to the scope whose tenant is ?param".
std::string trace_visible(std::string_view alias, int param) {
  const std::string p = "?" + std::to_string(param);
  const std::string c = std::string(alias) + ".tenant";
  return "(" + p + " IS NULL OR " + c + " = '' OR " + c + " = " + p + ")";
}

constexpr std::string_view kSqliteSummaryColumns =
    "t.trace_id, t.project, t.root_span_id, t.root_name, t.start_ns, t.end_ns, t.span_count, t.error_count, t.input, t.output, "
    "t.received_at_ms, t.tenant";

TraceSummary read_sqlite_summary(const SqliteStatement& row) {
  TraceSummary summary;
  summary.trace_id = row.text(0);
  summary.project = row.optional_text(1);
  summary.root_span_id = row.optional_text(2);
  summary.root_name = row.optional_text(3);
  summary.start_ns = row.integer(4);
  summary.end_ns = row.integer(5);
  summary.span_count = row.integer(6);
  summary.error_count = row.integer(7);
  summary.input = row.optional_text(8);
  summary.output = row.optional_text(9);
  summary.received_at_ms = row.integer(10);
  return summary;
}

// The trace's row from all its spans: the root is the earliest span without a parent; the project
// the earliest span's that names one.
constexpr std::string_view kSqliteSumTrace = R"sql(
INSERT INTO traces (tenant, trace_id, project, root_span_id, root_name, start_ns, end_ns, span_count, error_count, input, output, received_at_ms)
SELECT ?1, ?2,
  (SELECT p.project FROM spans p WHERE p.tenant = ?1 AND p.trace_id = ?2 AND p.project IS NOT NULL ORDER BY p.start_ns, p.span_id LIMIT 1),
  (SELECT r.span_id FROM spans r WHERE r.tenant = ?1 AND r.trace_id = ?2 AND r.parent_span_id = '' ORDER BY r.start_ns, r.span_id LIMIT 1),
  (SELECT r.name FROM spans r WHERE r.tenant = ?1 AND r.trace_id = ?2 AND r.parent_span_id = '' ORDER BY r.start_ns, r.span_id LIMIT 1),
  MIN(s.start_ns), MAX(s.end_ns), COUNT(*), SUM(CASE WHEN s.status_code = 2 THEN 1 ELSE 0 END),
  (SELECT r.input FROM spans r WHERE r.tenant = ?1 AND r.trace_id = ?2 AND r.parent_span_id = '' ORDER BY r.start_ns, r.span_id LIMIT 1),
  (SELECT r.output FROM spans r WHERE r.tenant = ?1 AND r.trace_id = ?2 AND r.parent_span_id = '' ORDER BY r.start_ns, r.span_id LIMIT 1),
  ?3
FROM spans s WHERE s.tenant = ?1 AND s.trace_id = ?2
ON CONFLICT (tenant, trace_id) DO UPDATE SET project = excluded.project, root_span_id = excluded.root_span_id,
  root_name = excluded.root_name, start_ns = excluded.start_ns, end_ns = excluded.end_ns, span_count = excluded.span_count,
  error_count = excluded.error_count, input = excluded.input, output = excluded.output, received_at_ms = excluded.received_at_ms
)sql";

}  // namespace

SpanIngestOutcome SqliteStore::add_spans(const Scope& scope, std::span<const SpanRecord> spans, std::int64_t received_at_ms) {
  const std::string tenant = trace_tenant(scope);
  SpanIngestOutcome outcome;
  std::set<std::string> touched;
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement insert = connection_.prepare(
      "INSERT INTO spans (tenant, trace_id, span_id, parent_span_id, name, kind, start_ns, end_ns, status_code, status_message, "
      "attributes, events, resource, scope_name, scope_version, project, input, output) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18) ON CONFLICT DO NOTHING");
  for (const SpanRecord& span : spans) {
    insert.bind(1, tenant).bind(2, span.trace_id).bind(3, span.span_id).bind(4, span.parent_span_id).bind(5, span.name);
    insert.bind(6, static_cast<std::int64_t>(span.kind)).bind(7, span.start_ns).bind(8, span.end_ns);
    insert.bind(9, static_cast<std::int64_t>(span.status_code)).bind(10, span.status_message).bind(11, span.attributes);
    insert.bind(12, span.events).bind(13, span.resource).bind(14, span.scope_name).bind(15, span.scope_version);
    insert.bind(16, span.project).bind(17, span.input).bind(18, span.output);
    insert.step();
    if (sqlite3_changes(connection_.handle()) > 0) ++outcome.stored;
    else ++outcome.duplicates;
    insert.reset();
    touched.insert(span.trace_id);
  }
  SqliteStatement sum = connection_.prepare(kSqliteSumTrace);
  for (const std::string& trace_id : touched) {
    sum.bind(1, tenant).bind(2, trace_id).bind(3, received_at_ms);
    sum.step();
    sum.reset();
  }
  transaction.commit();
  outcome.traces = touched.size();
  return outcome;
}

TracePage SqliteStore::traces(const Scope& scope, const TraceFilter& filter) {
  // Columns 12 and 13: the trace's online evaluations, and those that did not pass (an index range each).
  std::string sql = "SELECT " + std::string(kSqliteSummaryColumns) +
                    ", (SELECT count(*) FROM online_evaluations e WHERE e.tenant = t.tenant AND e.trace_id = t.trace_id), "
                    "(SELECT count(*) FROM online_evaluations e WHERE e.tenant = t.tenant AND e.trace_id = t.trace_id AND e.success = 0) "
                    "FROM traces t WHERE " + trace_visible("t", 1);
  if (filter.project) sql += " AND t.project = ?2";
  if (filter.root_name) sql += " AND t.root_name = ?3";
  if (filter.start_from_ns) sql += " AND t.start_ns >= ?4";
  if (filter.start_before_ns) sql += " AND t.start_ns < ?5";
  if (filter.errors_only) sql += " AND t.error_count > 0";
  if (filter.after_start_ns && filter.after_trace_id) sql += " AND (t.start_ns < ?6 OR (t.start_ns = ?6 AND t.trace_id < ?7))";
  sql += " ORDER BY t.start_ns DESC, t.trace_id DESC LIMIT ?8";
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare(sql);
  query.bind(1, scope.tenant).bind(2, filter.project).bind(3, filter.root_name).bind(4, filter.start_from_ns);
  query.bind(5, filter.start_before_ns).bind(6, filter.after_start_ns).bind(7, filter.after_trace_id);
  query.bind(8, static_cast<std::int64_t>(filter.limit + 1));
  TracePage page;
  while (query.step()) {
    page.traces.push_back(read_sqlite_summary(query));
    page.traces.back().evaluation_count = query.integer(12);
    page.traces.back().failed_evaluation_count = query.integer(13);
  }
  if (page.traces.size() > filter.limit) {
    page.traces.pop_back();
    page.more = true;
  }
  return page;
}

std::optional<StoredTrace> SqliteStore::trace(const Scope& scope, const std::string& trace_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  // The caller's own before a shared one.
  SqliteStatement head = connection_.prepare("SELECT " + std::string(kSqliteSummaryColumns) + " FROM traces t WHERE t.trace_id = ?2 AND " +
                                             trace_visible("t", 1) + " ORDER BY CASE WHEN t.tenant = ?1 THEN 0 ELSE 1 END LIMIT 1");
  head.bind(1, scope.tenant).bind(2, trace_id);
  if (!head.step()) return std::nullopt;
  StoredTrace out;
  out.summary = read_sqlite_summary(head);
  const std::string tenant(head.text(11));
  SqliteStatement spans = connection_.prepare(
      "SELECT trace_id, span_id, parent_span_id, name, kind, start_ns, end_ns, status_code, status_message, attributes, events, "
      "resource, scope_name, scope_version, project, input, output FROM spans WHERE tenant = ?1 AND trace_id = ?2 "
      "ORDER BY start_ns, span_id");
  spans.bind(1, tenant).bind(2, trace_id);
  while (spans.step()) {
    SpanRecord span;
    span.trace_id = spans.text(0);
    span.span_id = spans.text(1);
    span.parent_span_id = spans.text(2);
    span.name = spans.text(3);
    span.kind = static_cast<int>(spans.integer(4));
    span.start_ns = spans.integer(5);
    span.end_ns = spans.integer(6);
    span.status_code = static_cast<int>(spans.integer(7));
    span.status_message = spans.text(8);
    span.attributes = spans.text(9);
    span.events = spans.text(10);
    span.resource = spans.text(11);
    span.scope_name = spans.text(12);
    span.scope_version = spans.text(13);
    span.project = spans.optional_text(14);
    span.input = spans.optional_text(15);
    span.output = spans.optional_text(16);
    out.spans.push_back(std::move(span));
  }
  return out;
}

std::size_t SqliteStore::delete_traces_received_before(std::int64_t cutoff_ms, std::size_t limit) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteTransaction transaction(connection_);
  SqliteStatement old = connection_.prepare("SELECT tenant, trace_id FROM traces WHERE received_at_ms < ?1 ORDER BY received_at_ms LIMIT ?2");
  old.bind(1, cutoff_ms).bind(2, static_cast<std::int64_t>(limit));
  std::vector<std::pair<std::string, std::string>> doomed;
  while (old.step()) doomed.emplace_back(std::string(old.text(0)), std::string(old.text(1)));
  SqliteStatement drop_spans = connection_.prepare("DELETE FROM spans WHERE tenant = ?1 AND trace_id = ?2");
  SqliteStatement drop_trace = connection_.prepare("DELETE FROM traces WHERE tenant = ?1 AND trace_id = ?2");
  SqliteStatement drop_evaluations = connection_.prepare("DELETE FROM online_evaluations WHERE tenant = ?1 AND trace_id = ?2");
  for (const auto& [tenant, trace_id] : doomed) {
    drop_evaluations.bind(1, tenant).bind(2, trace_id);
    drop_evaluations.step();
    drop_evaluations.reset();
    drop_spans.bind(1, tenant).bind(2, trace_id);
    drop_spans.step();
    drop_spans.reset();
    drop_trace.bind(1, tenant).bind(2, trace_id);
    drop_trace.step();
    drop_trace.reset();
  }
  transaction.commit();
  return doomed.size();
}

}  // namespace krino::core::store
