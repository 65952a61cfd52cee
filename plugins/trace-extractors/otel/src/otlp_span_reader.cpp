#include "otlp_span_reader.hpp"

#include "otlp_values.hpp"

#include <krino/support/trace/document_shape.hpp>

#include <string_view>

namespace krino::otel {
namespace {

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

std::string id_member(const boost::json::object& span, std::string_view key, std::size_t bytes) {
  const boost::json::value* value = span.if_contains(key);
  return value != nullptr && value->is_string() ? normalize_id(value->get_string(), bytes) : std::string();
}

Span read_span(const boost::json::object& object, std::size_t order) {
  Span span;
  span.order = order;
  span.trace_id = id_member(object, "traceId", 16);
  span.span_id = id_member(object, "spanId", 8);
  span.parent_span_id = id_member(object, "parentSpanId", 8);
  span.name = trace::string_member(object, "name");
  span.kind = span_kind(object.if_contains("kind"));
  if (const boost::json::object* status = trace::find_object(object, "status")) {
    span.status = status_code(status->if_contains("code"));
    span.status_message = trace::string_member(*status, "message");
  }
  span.start_ns = unix_nanos(object.if_contains("startTimeUnixNano"));
  span.end_ns = unix_nanos(object.if_contains("endTimeUnixNano"));
  span.attributes = attributes(object.if_contains("attributes"));
  if (const boost::json::array* events = trace::find_array(object, "events"))
    for (const boost::json::value& event : *events)
      if (event.is_object())
        span.events.push_back({trace::string_member(event.get_object(), "name"),
                               attributes(event.get_object().if_contains("attributes"))});
  return span;
}

void read_scope_spans(const boost::json::array& scopes, SpanDocument& out) {
  for (const boost::json::value& scope : scopes) {
    if (!scope.is_object()) continue;
    if (const boost::json::array* spans = trace::find_array(scope.get_object(), "spans"))
      for (const boost::json::value& span : *spans)
        if (span.is_object()) out.spans.push_back(read_span(span.get_object(), out.spans.size()));
  }
}

void read_resource_spans(const boost::json::object& resource, SpanDocument& out) {
  for (const char* key : {"scopeSpans", "instrumentationLibrarySpans"})
    if (const boost::json::array* scopes = trace::find_array(resource, key)) read_scope_spans(*scopes, out);
}

bool is_span_object(const boost::json::value& value) {
  return value.is_object() && value.get_object().contains("spanId") &&
         (value.get_object().contains("attributes") || value.get_object().contains("name"));
}

}  // namespace

std::optional<SpanDocument> read_spans(const boost::json::value& document) {
  SpanDocument out;
  if (document.is_array()) {
    if (document.get_array().empty()) return std::nullopt;
    for (const boost::json::value& element : document.get_array())
      if (!is_span_object(element)) return std::nullopt;
    out.source = SpanSource::span_list;
    for (const boost::json::value& element : document.get_array())
      out.spans.push_back(read_span(element.get_object(), out.spans.size()));
    return out;
  }
  if (!document.is_object()) return std::nullopt;
  const boost::json::object& object = document.get_object();
  if (const boost::json::value* resources = object.if_contains("resourceSpans")) {
    if (!resources->is_array()) return std::nullopt;
    for (const boost::json::value& resource : resources->get_array())
      if (resource.is_object()) read_resource_spans(resource.get_object(), out);
    return out;
  }
  if (object.contains("scopeSpans") || object.contains("instrumentationLibrarySpans")) {
    read_resource_spans(object, out);
    return out;
  }
  for (const auto& member : object) {
    if (!starts_with(member.key(), "gen_ai.")) continue;
    out.source = SpanSource::attribute_map;
    Span span;
    span.attributes = object;
    out.spans.push_back(std::move(span));
    return out;
  }
  return std::nullopt;
}

bool has_genai_attributes(const SpanDocument& document) {
  const auto any_genai = [](const boost::json::object& attributes) {
    for (const auto& member : attributes)
      if (starts_with(member.key(), "gen_ai.")) return true;
    return false;
  };
  for (const Span& span : document.spans) {
    if (any_genai(span.attributes)) return true;
    for (const SpanEvent& event : span.events)
      if (any_genai(event.attributes)) return true;
  }
  return false;
}

}  // namespace krino::otel
