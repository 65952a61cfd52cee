#include "request_spans.hpp"

#include "krino/core/otlp/span_fields.hpp"

#include <krino/event/values.hpp>
#include <krino/json_text.hpp>

#include <boost/beast/core/detail/base64.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

namespace krino::core::otlp {

namespace pb_common = opentelemetry::proto::common::v1;
namespace pb_trace = opentelemetry::proto::trace::v1;

namespace {

constexpr std::size_t kReasonsKept = 5;

std::string hex_of(const std::string& bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 0xF];
  }
  return out;
}

bool all_zero(const std::string& bytes) {
  for (char c : bytes)
    if (c != 0) return false;
  return true;
}

void append_base64(std::string& out, const std::string& bytes) {
  const std::size_t at = out.size();
  out.resize(at + boost::beast::detail::base64::encoded_size(bytes.size()));
  out.resize(at + boost::beast::detail::base64::encode(out.data() + at, bytes.data(), bytes.size()));
}

void append_attributes(std::string& out, const google::protobuf::RepeatedPtrField<pb_common::KeyValue>& list);

// An AnyValue as plain JSON text, written straight from the message (no JSON tree: this runs for
// every attribute of every span ingested). Strings are UTF-8 already: protobuf's parser refuses a
// message whose string fields are not. JSON has no NaN or infinity: those doubles are written as
// the names the OTLP JSON mapping gives them.
void append_value(std::string& out, const pb_common::AnyValue& value) {
  switch (value.value_case()) {
    case pb_common::AnyValue::kStringValue: return krino::json::append_json_string(out, value.string_value());
    case pb_common::AnyValue::kBoolValue: out += value.bool_value() ? "true" : "false"; return;
    case pb_common::AnyValue::kIntValue: return krino::event::append_integer(out, static_cast<std::int64_t>(value.int_value()));
    case pb_common::AnyValue::kDoubleValue: {
      const double d = value.double_value();
      if (std::isnan(d)) out += "\"NaN\"";
      else if (std::isinf(d)) out += d > 0 ? "\"Infinity\"" : "\"-Infinity\"";
      else krino::json::append_double(out, d);
      return;
    }
    case pb_common::AnyValue::kArrayValue: {
      out += '[';
      bool first = true;
      for (const pb_common::AnyValue& element : value.array_value().values()) {
        if (!first) out += ',';
        first = false;
        append_value(out, element);
      }
      out += ']';
      return;
    }
    case pb_common::AnyValue::kKvlistValue: return append_attributes(out, value.kvlist_value().values());
    case pb_common::AnyValue::kBytesValue: {
      out += '"';
      append_base64(out, value.bytes_value());
      out += '"';
      return;
    }
    case pb_common::AnyValue::VALUE_NOT_SET: break;
  }
  out += "null";
}

// Whether entry `i` of the list is the last one with its key: a key given twice keeps its last
// value, as a map built from the list in order would. Lists are short; the usual one has no repeat.
bool last_of_its_key(const google::protobuf::RepeatedPtrField<pb_common::KeyValue>& list, int i) {
  for (int later = i + 1; later < list.size(); ++later)
    if (list[later].key() == list[i].key()) return false;
  return true;
}

void append_attributes(std::string& out, const google::protobuf::RepeatedPtrField<pb_common::KeyValue>& list) {
  out += '{';
  bool first = true;
  for (int i = 0; i < list.size(); ++i) {
    if (!last_of_its_key(list, i)) continue;
    if (!first) out += ',';
    first = false;
    krino::json::append_json_string(out, list[i].key());
    out += ':';
    append_value(out, list[i].value());
  }
  out += '}';
}

std::string attributes_text(const google::protobuf::RepeatedPtrField<pb_common::KeyValue>& list) {
  std::string out;
  append_attributes(out, list);
  return out;
}

// The value of the last entry named `key`, or null.
const pb_common::AnyValue* find_value(const google::protobuf::RepeatedPtrField<pb_common::KeyValue>& list, std::string_view key) {
  for (int i = list.size() - 1; i >= 0; --i)
    if (list[i].key() == key) return &list[i].value();
  return nullptr;
}

// The first key of `keys` present with a value (span_fields.hpp): a string as it is, another value
// as its JSON text.
std::optional<std::string> first_attribute(const google::protobuf::RepeatedPtrField<pb_common::KeyValue>& list,
                                         std::span<const std::string_view> keys) {
  for (std::string_view key : keys) {
    const pb_common::AnyValue* value = find_value(list, key);
    if (value == nullptr || value->value_case() == pb_common::AnyValue::VALUE_NOT_SET) continue;
    if (value->value_case() == pb_common::AnyValue::kStringValue) return value->string_value();
    std::string text;
    append_value(text, *value);
    return text;
  }
  return std::nullopt;
}

std::optional<std::string> project_from(const google::protobuf::RepeatedPtrField<pb_common::KeyValue>& resource) {
  for (std::string_view key : project_keys()) {
    const pb_common::AnyValue* value = find_value(resource, key);
    if (value != nullptr && value->value_case() == pb_common::AnyValue::kStringValue && !value->string_value().empty())
      return value->string_value();
  }
  return std::nullopt;
}

std::optional<std::int64_t> nanos(std::uint64_t value) {
  if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
  return static_cast<std::int64_t>(value);
}

// Why the span cannot be kept, or "".
std::string_view fault(const pb_trace::Span& span) {
  if (span.trace_id().empty()) return "no traceId";
  if (span.trace_id().size() != 16) return "traceId is not 16 bytes (32 hex digits)";
  if (all_zero(span.trace_id())) return "traceId is all zeros";
  if (span.span_id().empty()) return "no spanId";
  if (span.span_id().size() != 8) return "spanId is not 8 bytes (16 hex digits)";
  if (all_zero(span.span_id())) return "spanId is all zeros";
  if (!span.parent_span_id().empty() && span.parent_span_id().size() != 8) return "parentSpanId is not 8 bytes (16 hex digits)";
  if (span.name().empty()) return "no name";
  if (!nanos(span.start_time_unix_nano()) || !nanos(span.end_time_unix_nano())) return "a time is past the year 2262";
  for (const pb_trace::Span::Event& event : span.events())
    if (!nanos(event.time_unix_nano())) return "an event's time is past the year 2262";
  return {};
}

std::string events_text(const pb_trace::Span& span) {
  std::string out = "[";
  for (int i = 0; i < span.events_size(); ++i) {
    const pb_trace::Span::Event& event = span.events(i);
    if (i > 0) out += ',';
    out += "{\"name\":";
    krino::json::append_json_string(out, event.name());
    // A string, as OTLP/JSON writes it: exact in JavaScript too.
    out += ",\"timeUnixNano\":\"";
    out += std::to_string(event.time_unix_nano());
    out += "\",\"attributes\":";
    append_attributes(out, event.attributes());
    out += '}';
  }
  out += ']';
  return out;
}

}  // namespace

void Rejections::add(const std::string& where, std::string_view reason) {
  if (count_ < kReasonsKept) {
    if (!message_.empty()) message_.append("; ");
    message_.append(where).append(": ").append(reason);
  }
  ++count_;
}

std::string Rejections::message() const {
  if (count_ == 0) return {};
  std::string text = std::to_string(count_);
  text.append(count_ == 1 ? " span rejected: " : " spans rejected: ").append(message_);
  if (count_ > kReasonsKept) text.append("; ...");
  return text;
}

std::string span_place(int resource, int scope, int span) {
  std::string place = "resourceSpans[";
  place.append(std::to_string(resource)).append("].scopeSpans[").append(std::to_string(scope)).append("].spans[");
  place.append(std::to_string(span)).append("]");
  return place;
}

DecodedSpans request_spans(const opentelemetry::proto::collector::trace::v1::ExportTraceServiceRequest& request, Rejections& rejections,
                           const SpanOrigins* origins) {
  DecodedSpans out;
  for (int r = 0; r < request.resource_spans_size(); ++r) {
    const pb_trace::ResourceSpans& resource_spans = request.resource_spans(r);
    const std::string resource_text = attributes_text(resource_spans.resource().attributes());
    const std::optional<std::string> project = project_from(resource_spans.resource().attributes());
    for (int s = 0; s < resource_spans.scope_spans_size(); ++s) {
      const pb_trace::ScopeSpans& scope_spans = resource_spans.scope_spans(s);
      for (int i = 0; i < scope_spans.spans_size(); ++i) {
        const pb_trace::Span& span = scope_spans.spans(i);
        if (const std::string_view reason = fault(span); !reason.empty()) {
          rejections.add(span_place(r, s, origins != nullptr ? (*origins)[static_cast<std::size_t>(r)][static_cast<std::size_t>(s)][static_cast<std::size_t>(i)] : i),
                         reason);
          continue;
        }
        store::SpanRecord record;
        record.trace_id = hex_of(span.trace_id());
        record.span_id = hex_of(span.span_id());
        record.parent_span_id = hex_of(span.parent_span_id());
        record.name = span.name();
        record.kind = static_cast<int>(span.kind());
        record.start_ns = static_cast<std::int64_t>(span.start_time_unix_nano());
        record.end_ns = static_cast<std::int64_t>(span.end_time_unix_nano());
        record.status_code = static_cast<int>(span.status().code());
        record.status_message = span.status().message();
        record.attributes = attributes_text(span.attributes());
        record.events = events_text(span);
        record.resource = resource_text;
        record.scope_name = scope_spans.scope().name();
        record.scope_version = scope_spans.scope().version();
        record.project = project;
        record.input = first_attribute(span.attributes(), input_keys());
        record.output = first_attribute(span.attributes(), output_keys());
        out.spans.push_back(std::move(record));
      }
    }
  }
  out.rejected = rejections.count();
  out.rejection_message = rejections.message();
  return out;
}

}  // namespace krino::core::otlp
