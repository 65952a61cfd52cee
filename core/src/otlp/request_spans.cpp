#include "request_spans.hpp"

#include "krino/core/otlp/span_fields.hpp"

#include <krino/utf8.hpp>

#include <boost/beast/core/detail/base64.hpp>
#include <krino/json_text.hpp>
#include <boost/json/value.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

namespace krino::core::otlp {

namespace pb_common = opentelemetry::proto::common::v1;
namespace pb_trace = opentelemetry::proto::trace::v1;

namespace {

constexpr std::size_t kReasonsKept = 5;

std::string valid_text(const std::string& bytes) { return utf8::is_valid(bytes) ? bytes : utf8::repaired(bytes); }

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

std::string base64_of(const std::string& bytes) {
  std::string out(boost::beast::detail::base64::encoded_size(bytes.size()), '\0');
  out.resize(boost::beast::detail::base64::encode(out.data(), bytes.data(), bytes.size()));
  return out;
}

boost::json::object attribute_object(const google::protobuf::RepeatedPtrField<pb_common::KeyValue>& list);

// JSON has no NaN or infinity: those doubles are kept as the names the OTLP JSON mapping gives them.
boost::json::value plain_value(const pb_common::AnyValue& value) {
  switch (value.value_case()) {
    case pb_common::AnyValue::kStringValue: return boost::json::value(valid_text(value.string_value()));
    case pb_common::AnyValue::kBoolValue: return boost::json::value(value.bool_value());
    case pb_common::AnyValue::kIntValue: return boost::json::value(static_cast<std::int64_t>(value.int_value()));
    case pb_common::AnyValue::kDoubleValue: {
      const double d = value.double_value();
      if (std::isnan(d)) return boost::json::value("NaN");
      if (std::isinf(d)) return boost::json::value(d > 0 ? "Infinity" : "-Infinity");
      return boost::json::value(d);
    }
    case pb_common::AnyValue::kArrayValue: {
      boost::json::array out;
      out.reserve(static_cast<std::size_t>(value.array_value().values_size()));
      for (const pb_common::AnyValue& element : value.array_value().values()) out.push_back(plain_value(element));
      return out;
    }
    case pb_common::AnyValue::kKvlistValue: return attribute_object(value.kvlist_value().values());
    case pb_common::AnyValue::kBytesValue: return boost::json::value(base64_of(value.bytes_value()));
    case pb_common::AnyValue::VALUE_NOT_SET: break;
  }
  return nullptr;
}

// A key given twice keeps its last value, as a map built from the list in order would.
boost::json::object attribute_object(const google::protobuf::RepeatedPtrField<pb_common::KeyValue>& list) {
  boost::json::object out;
  out.reserve(static_cast<std::size_t>(list.size()));
  for (const pb_common::KeyValue& entry : list) out[valid_text(entry.key())] = plain_value(entry.value());
  return out;
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
  boost::json::array events;
  events.reserve(static_cast<std::size_t>(span.events_size()));
  for (const pb_trace::Span::Event& event : span.events()) {
    boost::json::object out;
    out["name"] = valid_text(event.name());
    out["timeUnixNano"] = std::to_string(event.time_unix_nano());  // a string, as OTLP/JSON writes it: exact in JavaScript too
    out["attributes"] = attribute_object(event.attributes());
    events.push_back(std::move(out));
  }
  return krino::json::to_compact_json(events);
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
    const boost::json::object resource = attribute_object(resource_spans.resource().attributes());
    const std::string resource_text = krino::json::to_compact_json(resource);
    const std::optional<std::string> project = project_of(resource);
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
        record.name = valid_text(span.name());
        record.kind = static_cast<int>(span.kind());
        record.start_ns = static_cast<std::int64_t>(span.start_time_unix_nano());
        record.end_ns = static_cast<std::int64_t>(span.end_time_unix_nano());
        record.status_code = static_cast<int>(span.status().code());
        record.status_message = valid_text(span.status().message());
        const boost::json::object attributes = attribute_object(span.attributes());
        record.attributes = krino::json::to_compact_json(attributes);
        record.events = events_text(span);
        record.resource = resource_text;
        record.scope_name = valid_text(scope_spans.scope().name());
        record.scope_version = valid_text(scope_spans.scope().version());
        record.project = project;
        record.input = input_of(attributes);
        record.output = output_of(attributes);
        out.spans.push_back(std::move(record));
      }
    }
  }
  out.rejected = rejections.count();
  out.rejection_message = rejections.message();
  return out;
}

}  // namespace krino::core::otlp
