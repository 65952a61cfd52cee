#include "krino/core/server_api/trace_routes.hpp"

#include "json_out.hpp"
#include "query_params.hpp"
#include "route_helpers.hpp"
#include "krino/core/common/json_scan.hpp"
#include "krino/core/http_server/request_encoding.hpp"
#include "krino/core/otlp/otlp_request.hpp"

#include <krino/event/values.hpp>
#include <krino/json_text.hpp>

#include <boost/beast/http/field.hpp>
#include <boost/beast/http/verb.hpp>
#include <boost/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <unordered_map>

namespace krino::core::server_api {

namespace {

constexpr std::size_t kDefaultTracePage = 50;
constexpr std::size_t kMaxTracePage = 500;

enum class OtlpEncoding { protobuf, json };

std::string lower_media_type(std::string_view header) {
  std::string type(header.substr(0, header.find(';')));
  while (!type.empty() && (type.back() == ' ' || type.back() == '\t')) type.pop_back();
  std::size_t first = 0;
  while (first < type.size() && (type[first] == ' ' || type[first] == '\t')) ++first;
  type.erase(0, first);
  for (char& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return type;
}

std::optional<OtlpEncoding> encoding_of(const Request& request) {
  const auto header = request.header("Content-Type");
  if (!header) return std::nullopt;
  const std::string type = lower_media_type(*header);
  if (type == "application/x-protobuf" || type == "application/protobuf") return OtlpEncoding::protobuf;
  if (type == "application/json") return OtlpEncoding::json;
  return std::nullopt;
}

Response otlp_answer(OtlpEncoding encoding, std::string body) {
  if (encoding == OtlpEncoding::json) return http_server::json_response(Status::ok, std::move(body));
  Response response(Status::ok, 11);
  response.set(boost::beast::http::field::content_type, "application/x-protobuf");
  response.body() = std::move(body);
  response.prepare_payload();
  return response;
}

Response ingest(store::Store& store, const TraceRouteOptions& options, const Request& request, const store::Scope& scope) {
  const std::optional<OtlpEncoding> encoding = encoding_of(request);
  if (!encoding)
    return http_server::error_response(Status::unsupported_media_type, "unsupported_media_type",
                                       "Content-Type must be application/x-protobuf or application/json (an OTLP trace export)");
  std::string_view body = request.message.body();
  std::string inflated;
  if (const auto coding = request.header("Content-Encoding"); coding && lower_media_type(*coding) != "identity") {
    if (lower_media_type(*coding) != "gzip")
      return http_server::error_response(Status::unsupported_media_type, "unsupported_media_type", "Content-Encoding must be gzip or identity");
    http_server::InflateResult result = http_server::gunzip(body, options.max_inflated_bytes);
    if (!result.body)
      return http_server::error_response(result.too_large ? Status::payload_too_large : Status::bad_request,
                                         result.too_large ? "body_too_large" : "invalid_request", result.error);
    inflated = std::move(*result.body);
    body = inflated;
  }
  otlp::DecodedSpans decoded;
  try {
    decoded = *encoding == OtlpEncoding::protobuf ? otlp::decode_protobuf_request(body) : otlp::decode_json_request(body);
  } catch (const otlp::OtlpFormatError& error) {
    return http_server::error_response(Status::bad_request, "invalid_request", error.what());
  }
  const std::int64_t now = options.now_ms ? options.now_ms()
                                          : std::chrono::duration_cast<std::chrono::milliseconds>(
                                                std::chrono::system_clock::now().time_since_epoch())
                                                .count();
  store::SpanIngestOutcome outcome;
  if (!decoded.spans.empty()) outcome = store.add_spans(scope, decoded.spans, now);
  // A span sent again is accepted (the exporter retried after a lost answer): it is stored once.
  const std::size_t accepted = decoded.spans.size();
  if (options.matcher) {
    options.matcher->count_spans(accepted, decoded.rejected);
    // Matched whether new or sent again: a match queued before is not queued twice (dedupe key),
    // and one lost to a crash between storing and queueing is queued by the exporter's retry.
    options.matcher->match(scope.tenant, decoded.spans);
  }
  if (*encoding == OtlpEncoding::protobuf) return otlp_answer(*encoding, otlp::protobuf_response(decoded.rejected, decoded.rejection_message));
  return otlp_answer(*encoding, otlp::json_response(accepted, decoded.rejected, decoded.rejection_message, outcome.traces));
}

void append_nanos(std::string& out, std::int64_t nanos) {
  // Text, as OTLP/JSON writes 64-bit integers: JavaScript's numbers would round them.
  out += '"';
  out += std::to_string(nanos);
  out += '"';
}

void append_enum(std::string& out, int value, const char* const* names, int count) {
  if (value >= 0 && value < count) krino::json::append_json_string(out, names[value]);
  else krino::event::append_integer(out, value);
}

const char* const kKindNames[] = {"SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER",
                                  "SPAN_KIND_CLIENT",      "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"};
const char* const kStatusNames[] = {"STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"};

// One span as OTLP/JSON spells it (hex ids, enum names, times as text), with plain attribute maps
// (as the otel extractor reads span lists) and what the server derived. `tree_tail` (the depth and
// children's ids) goes before the closing brace.
void append_span(std::string& out, const store::SpanRecord& span, std::string_view tree_tail = {}) {
  out += "{\"traceId\":";
  krino::json::append_json_string(out, span.trace_id);
  append_key(out, "spanId");
  krino::json::append_json_string(out, span.span_id);
  if (!span.parent_span_id.empty()) {
    append_key(out, "parentSpanId");
    krino::json::append_json_string(out, span.parent_span_id);
  }
  append_key(out, "name");
  krino::json::append_json_string(out, span.name);
  append_key(out, "kind");
  append_enum(out, span.kind, kKindNames, 6);
  append_key(out, "startTimeUnixNano");
  append_nanos(out, span.start_ns);
  append_key(out, "endTimeUnixNano");
  append_nanos(out, span.end_ns);
  out += ",\"status\":{\"code\":";
  append_enum(out, span.status_code, kStatusNames, 3);
  append_key(out, "message");
  krino::json::append_json_string(out, span.status_message);
  out += '}';
  append_key(out, "attributes");
  out += span.attributes;
  append_key(out, "events");
  out += span.events;
  append_key(out, "resource");
  out += span.resource;
  out += ",\"scope\":{\"name\":";
  krino::json::append_json_string(out, span.scope_name);
  append_key(out, "version");
  krino::json::append_json_string(out, span.scope_version);
  out += '}';
  append_key(out, "project");
  append_optional_text(out, span.project);
  append_key(out, "input");
  append_optional_text(out, span.input);
  append_key(out, "output");
  append_optional_text(out, span.output);
  out += tree_tail;
  out += '}';
}

void append_summary_fields(std::string& out, const store::TraceSummary& trace) {
  out += "\"traceId\":";
  krino::json::append_json_string(out, trace.trace_id);
  append_key(out, "project");
  append_optional_text(out, trace.project);
  append_key(out, "rootSpanId");
  append_optional_text(out, trace.root_span_id);
  append_key(out, "rootName");
  append_optional_text(out, trace.root_name);
  append_key(out, "startTimeUnixNano");
  append_nanos(out, trace.start_ns);
  append_key(out, "endTimeUnixNano");
  append_nanos(out, trace.end_ns);
  append_key(out, "spanCount");
  krino::event::append_integer(out, trace.span_count);
  append_key(out, "errorCount");
  krino::event::append_integer(out, trace.error_count);
  append_key(out, "input");
  append_optional_text(out, trace.input);
  append_key(out, "output");
  append_optional_text(out, trace.output);
  append_key(out, "receivedAtMs");
  krino::event::append_integer(out, trace.received_at_ms);
  append_key(out, "evaluationCount");
  krino::event::append_integer(out, trace.evaluation_count);
  append_key(out, "failedEvaluationCount");
  krino::event::append_integer(out, trace.failed_evaluation_count);
}

void append_optional_number(std::string& out, const std::optional<double>& value) {
  if (value) out += boost::json::serialize(boost::json::value(*value));
  else out += "null";
}

// The names the UI reads (docs/server.md, "Online evaluation of traces").
void append_evaluations(std::string& out, const std::vector<store::OnlineEvaluation>& evaluations) {
  out += '[';
  for (std::size_t i = 0; i < evaluations.size(); ++i) {
    const store::OnlineEvaluation& evaluation = evaluations[i];
    if (i > 0) out += ',';
    out += "{\"ruleId\":";
    krino::json::append_json_string(out, evaluation.rule_id);
    append_key(out, "ruleName");
    krino::json::append_json_string(out, evaluation.rule_name);
    append_key(out, "evaluatorName");
    krino::json::append_json_string(out, evaluation.evaluator_name);
    append_key(out, "spanId");
    append_optional_text(out, evaluation.span_id);
    append_key(out, "score");
    append_optional_number(out, evaluation.score);
    append_key(out, "success");
    out += evaluation.success ? "true" : "false";
    append_key(out, "reason");
    append_optional_text(out, evaluation.reason);
    append_key(out, "error");
    append_optional_text(out, evaluation.error);
    append_key(out, "judgedAtMs");
    krino::event::append_integer(out, evaluation.judged_at_ms);
    out += '}';
  }
  out += ']';
}

// The spans depth first from each root (a span whose parent is not in the trace counts as one),
// children by start; spans in a parent cycle, which no root reaches, come last at depth 0. No
// recursion: a hostile trace may nest a span per level as deep as it likes.
void append_span_tree(std::string& out, const std::vector<store::SpanRecord>& spans) {
  std::unordered_map<std::string_view, std::size_t> by_id;
  for (std::size_t i = 0; i < spans.size(); ++i) by_id.emplace(spans[i].span_id, i);
  std::vector<std::vector<std::size_t>> children(spans.size());
  std::vector<std::size_t> roots;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    const auto parent = spans[i].parent_span_id.empty() ? by_id.end() : by_id.find(spans[i].parent_span_id);
    if (parent == by_id.end() || parent->second == i) roots.push_back(i);
    else children[parent->second].push_back(i);
  }
  std::vector<bool> shown(spans.size(), false);
  std::vector<std::pair<std::size_t, std::int64_t>> stack;  // (span, depth)
  bool first = true;
  const auto show = [&](std::size_t index, std::int64_t depth) {
    shown[index] = true;
    std::string tail = ",\"depth\":" + std::to_string(depth) + ",\"childSpanIds\":[";
    for (std::size_t c = 0; c < children[index].size(); ++c) {
      if (c > 0) tail += ',';
      krino::json::append_json_string(tail, spans[children[index][c]].span_id);
    }
    tail += ']';
    if (!first) out += ',';
    first = false;
    append_span(out, spans[index], tail);
  };
  out += '[';
  for (std::size_t root : roots) {
    stack.emplace_back(root, 0);
    while (!stack.empty()) {
      const auto [index, depth] = stack.back();
      stack.pop_back();
      if (shown[index]) continue;
      show(index, depth);
      for (auto child = children[index].rbegin(); child != children[index].rend(); ++child) stack.emplace_back(*child, depth + 1);
    }
  }
  for (std::size_t i = 0; i < spans.size(); ++i)
    if (!shown[i]) show(i, 0);
  out += ']';
}

std::optional<std::int64_t> nanos_query(const Request& request, const std::string& name, std::optional<Response>& refusal) {
  const auto text = request.query_value(name);
  if (!text) return std::nullopt;
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || value < 0)
    refusal = invalid_field(name, "must be Unix nanoseconds (a whole number)");
  return value;
}

bool is_trace_id(std::string_view text) {
  if (text.size() != 32) return false;
  return std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

Response list_traces(store::Store& store, const Request& request, const store::Scope& scope) {
  std::optional<Response> refusal;
  store::TraceFilter filter;
  const auto limit = whole_query(request, "limit", kDefaultTracePage, 1, kMaxTracePage, refusal);
  if (!limit) return *refusal;
  filter.limit = *limit;
  filter.project = request.query_value("project");
  filter.root_name = request.query_value("name");
  filter.start_from_ns = nanos_query(request, "from", refusal);
  filter.start_before_ns = nanos_query(request, "to", refusal);
  if (refusal) return *refusal;
  if (const auto errors = request.query_value("errors")) filter.errors_only = *errors == "true";
  if (const auto cursor = request.query_value("cursor")) {
    // "<start ns>-<trace id>", as nextCursor gives it.
    const std::size_t dash = cursor->find('-');
    std::int64_t start = 0;
    const auto [end, ec] = std::from_chars(cursor->data(), cursor->data() + (dash == std::string::npos ? 0 : dash), start);
    if (dash == std::string::npos || ec != std::errc() || end != cursor->data() + dash || !is_trace_id(std::string_view(*cursor).substr(dash + 1)))
      return invalid_field("cursor", "must be a nextCursor this API returned");
    filter.after_start_ns = start;
    filter.after_trace_id = cursor->substr(dash + 1);
  }
  const store::TracePage page = store.traces(scope, filter);
  std::string out = "{\"traces\":[";
  for (std::size_t i = 0; i < page.traces.size(); ++i) {
    if (i > 0) out += ',';
    out += '{';
    append_summary_fields(out, page.traces[i]);
    out += '}';
  }
  out += "],\"nextCursor\":";
  if (page.more && !page.traces.empty()) {
    krino::json::append_json_string(out, std::to_string(page.traces.back().start_ns) + "-" + page.traces.back().trace_id);
  } else {
    out += "null";
  }
  out += '}';
  return http_server::json_response(Status::ok, std::move(out));
}

Response get_trace(store::Store& store, const TraceRouteOptions& options, const Request& request, const store::Scope& scope) {
  std::string id = request.param("traceId");
  for (char& c : id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!is_trace_id(id)) return not_found("trace " + request.param("traceId"));
  const std::optional<store::StoredTrace> trace = store.trace(scope, id);
  if (!trace) return not_found("trace " + id);
  const std::vector<store::OnlineEvaluation> evaluations = store.online_evaluations(scope, id);
  store::TraceSummary summary = trace->summary;
  summary.evaluation_count = static_cast<std::int64_t>(evaluations.size());
  summary.failed_evaluation_count = std::count_if(evaluations.begin(), evaluations.end(), [](const auto& e) { return !e.success; });
  std::string out = "{";
  append_summary_fields(out, summary);
  append_key(out, "spans");
  append_span_tree(out, trace->spans);
  append_key(out, "evaluations");
  append_evaluations(out, evaluations);
  append_key(out, "canonicalTrace");
  if (!options.canonical_trace) {
    out += "null,\"canonicalTraceError\":\"this server has no otel trace extractor loaded\"";
  } else {
    const CanonicalTraceResult canonical = options.canonical_trace(spans_json(trace->spans));
    if (canonical.trace && is_json_object(*canonical.trace, 256)) {
      out += *canonical.trace;
    } else {
      out += "null";
      append_key(out, "canonicalTraceError");
      krino::json::append_json_string(out, canonical.trace ? "the extractor wrote no JSON object" : canonical.error);
    }
  }
  out += '}';
  return http_server::json_response(Status::ok, std::move(out));
}

}  // namespace

std::string spans_json(const std::vector<store::SpanRecord>& spans) {
  std::string out = "[";
  for (std::size_t i = 0; i < spans.size(); ++i) {
    if (i > 0) out += ',';
    append_span(out, spans[i]);
  }
  out += ']';
  return out;
}

void add_trace_routes(http_server::Router& router, store::Store& store, const Authenticator& auth, TraceRouteOptions options) {
  using boost::beast::http::verb;
  auto shared = std::make_shared<const TraceRouteOptions>(std::move(options));
  const auto post = [&store, shared](const Request& r, const Principal& p) { return ingest(store, *shared, r, p.scope()); };
  router.add(verb::post, "/v1/traces", auth.guard(Access::write, post));
  router.add(verb::post, "/api/v1/traces", auth.guard(Access::write, post));
  router.add(verb::get, "/api/v1/traces", auth.guard(Access::read, [&store](const Request& r, const Principal& p) { return list_traces(store, r, p.scope()); }));
  router.add(verb::get, "/api/v1/traces/{traceId}",
             auth.guard(Access::read, [&store, shared](const Request& r, const Principal& p) { return get_trace(store, *shared, r, p.scope()); }));
}

}  // namespace krino::core::server_api
