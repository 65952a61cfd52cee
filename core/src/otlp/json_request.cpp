// The JSON encoding (the OTLP/JSON mapping of the same messages) read into the protobuf message,
// so both encodings end in one path (request_spans). Protobuf's own JSON reader is not used: it
// needs the full runtime (reflection), writes ids as base64 where OTLP/JSON writes hex, and fails a
// whole export on one bad member where OTLP wants that span rejected alone.
#include "krino/core/otlp/otlp_request.hpp"

#include "request_spans.hpp"

#include <krino/json_parse.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

namespace krino::core::otlp {

namespace pb_common = opentelemetry::proto::common::v1;
namespace pb_trace = opentelemetry::proto::trace::v1;
namespace pb_collector = opentelemetry::proto::collector::trace::v1;

namespace {

// What makes the span under construction unusable; the first fault is the reason given.
class SpanFault {
 public:
  void set(std::string reason) {
    if (reason_.empty()) reason_ = std::move(reason);
  }
  bool any() const { return !reason_.empty(); }
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> from_hex(std::string_view text) {
  if (text.size() % 2 != 0) return std::nullopt;
  std::string bytes(text.size() / 2, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const int high = hex_digit(text[2 * i]);
    const int low = hex_digit(text[2 * i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    bytes[i] = static_cast<char>(high * 16 + low);
  }
  return bytes;
}

int base64_digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;  // the standard and the URL-safe alphabets
  if (c == '/' || c == '_') return 63;
  return -1;
}

// Base64 in either alphabet, padded or not; nullopt for anything else. Written out here: Beast's
// decoder writes past the size it promises for some inputs (found by the otlp_json fuzzer).
std::optional<std::string> from_base64(std::string_view text) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  if (text.size() % 4 == 1) return std::nullopt;
  std::string bytes;
  bytes.reserve(text.size() * 3 / 4);
  std::uint32_t bits = 0;
  int held = 0;
  for (char c : text) {
    const int digit = base64_digit(c);
    if (digit < 0) return std::nullopt;
    bits = (bits << 6) | static_cast<std::uint32_t>(digit);
    held += 6;
    if (held >= 8) {
      held -= 8;
      bytes += static_cast<char>((bits >> held) & 0xFF);
    }
  }
  return bytes;
}

// An id: hex as OTLP/JSON writes it (either case), else base64 as protobuf's generic JSON writes
// bytes. Text in neither form is kept as it is, so the length check names the fault.
std::string id_bytes(std::string_view text, std::size_t bytes) {
  if (text.size() == bytes * 2)
    if (auto decoded = from_hex(text)) return *decoded;
  if (auto decoded = from_base64(text); decoded && decoded->size() == bytes) return *decoded;
  return std::string(text);
}

void read_id(const boost::json::object& span, std::string_view key, std::size_t bytes, std::string* out, SpanFault& fault) {
  const boost::json::value* value = span.if_contains(key);
  if (value == nullptr || value->is_null()) return;
  if (!value->is_string()) return fault.set(std::string(key) + " is not a string");
  *out = id_bytes(value->get_string(), bytes);
}

// A 64-bit unsigned integer from a number or a decimal string (the mapping allows both).
std::optional<std::uint64_t> unsigned_number(const boost::json::value& value) {
  if (value.is_uint64()) return value.get_uint64();
  if (value.is_int64()) return value.get_int64() >= 0 ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(value.get_int64())) : std::nullopt;
  if (value.is_string()) {
    const std::string_view text = value.get_string();
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec == std::errc() && end == text.data() + text.size() && !text.empty()) return n;
  }
  return std::nullopt;
}

std::optional<std::int64_t> signed_number(const boost::json::value& value) {
  if (value.is_int64()) return value.get_int64();
  if (value.is_uint64()) return std::nullopt;  // beyond int64
  if (value.is_string()) {
    const std::string_view text = value.get_string();
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec == std::errc() && end == text.data() + text.size() && !text.empty()) return n;
  }
  return std::nullopt;
}

void read_time(const boost::json::object& object, std::string_view key, std::uint64_t& out, SpanFault& fault) {
  const boost::json::value* value = object.if_contains(key);
  if (value == nullptr || value->is_null()) return;
  const auto n = unsigned_number(*value);
  if (!n) return fault.set(std::string(key) + " is not an unsigned 64-bit integer");
  out = *n;
}

// An enum as its number or its name ("SPAN_KIND_CLIENT"); names[i] is the name of value i.
std::optional<int> enum_value(const boost::json::value& value, const char* const* names, int count) {
  if (value.is_int64() && value.get_int64() >= 0 && value.get_int64() <= std::numeric_limits<int>::max())
    return static_cast<int>(value.get_int64());
  if (value.is_string())
    for (int i = 0; i < count; ++i)
      if (value.get_string() == names[i]) return i;
  return std::nullopt;
}

void read_key_values(const boost::json::value* list, google::protobuf::RepeatedPtrField<pb_common::KeyValue>& out,
                     std::string_view where, SpanFault& fault, int depth);

void read_any_value(const boost::json::value& json, pb_common::AnyValue& out, std::string_view where, SpanFault& fault, int depth) {
  if (depth > 64) return fault.set(std::string(where) + " is nested more than 64 levels deep");
  if (!json.is_object()) return fault.set(std::string(where) + " is not an AnyValue object");
  const boost::json::object& any = json.get_object();
  if (any.empty()) return;
  if (const boost::json::value* text = any.if_contains("stringValue")) {
    if (!text->is_string()) return fault.set(std::string(where) + ".stringValue is not a string");
    out.set_string_value(std::string(text->get_string()));
  } else if (const boost::json::value* flag = any.if_contains("boolValue")) {
    if (!flag->is_bool()) return fault.set(std::string(where) + ".boolValue is not a boolean");
    out.set_bool_value(flag->get_bool());
  } else if (const boost::json::value* integer = any.if_contains("intValue")) {
    const auto n = signed_number(*integer);
    if (!n) return fault.set(std::string(where) + ".intValue is not a signed 64-bit integer");
    out.set_int_value(*n);
  } else if (const boost::json::value* real = any.if_contains("doubleValue")) {
    if (real->is_double()) out.set_double_value(real->get_double());
    else if (real->is_int64()) out.set_double_value(static_cast<double>(real->get_int64()));
    else if (real->is_uint64()) out.set_double_value(static_cast<double>(real->get_uint64()));
    else if (real->is_string() && real->get_string() == "NaN") out.set_double_value(std::numeric_limits<double>::quiet_NaN());
    else if (real->is_string() && real->get_string() == "Infinity") out.set_double_value(std::numeric_limits<double>::infinity());
    else if (real->is_string() && real->get_string() == "-Infinity") out.set_double_value(-std::numeric_limits<double>::infinity());
    else return fault.set(std::string(where) + ".doubleValue is not a number");
  } else if (const boost::json::value* array_json = any.if_contains("arrayValue")) {
    pb_common::ArrayValue* array = out.mutable_array_value();
    if (!array_json->is_object()) return fault.set(std::string(where) + ".arrayValue is not an object");
    const boost::json::value* values = array_json->get_object().if_contains("values");
    if (values == nullptr || values->is_null()) return;
    if (!values->is_array()) return fault.set(std::string(where) + ".arrayValue.values is not a list");
    for (const boost::json::value& element : values->get_array()) {
      read_any_value(element, *array->add_values(), where, fault, depth + 1);
      if (fault.any()) return;
    }
  } else if (const boost::json::value* kvlist = any.if_contains("kvlistValue")) {
    pb_common::KeyValueList* list = out.mutable_kvlist_value();
    if (!kvlist->is_object()) return fault.set(std::string(where) + ".kvlistValue is not an object");
    read_key_values(kvlist->get_object().if_contains("values"), *list->mutable_values(), where, fault, depth + 1);
  } else if (const boost::json::value* bytes_text = any.if_contains("bytesValue")) {
    std::optional<std::string> bytes = bytes_text->is_string() ? from_base64(bytes_text->get_string()) : std::nullopt;
    if (!bytes) return fault.set(std::string(where) + ".bytesValue is not base64");
    out.set_bytes_value(std::move(*bytes));
  } else {
    fault.set(std::string(where) + " has no known AnyValue member");
  }
}

void read_key_values(const boost::json::value* list, google::protobuf::RepeatedPtrField<pb_common::KeyValue>& out,
                     std::string_view where, SpanFault& fault, int depth) {
  if (list == nullptr || list->is_null()) return;
  if (!list->is_array()) return fault.set(std::string(where) + " attributes are not a list");
  for (const boost::json::value& entry : list->get_array()) {
    const boost::json::value* key = entry.is_object() ? entry.get_object().if_contains("key") : nullptr;
    if (key == nullptr || !key->is_string()) return fault.set(std::string(where) + " has an attribute without a string key");
    pb_common::KeyValue* kv = out.Add();
    kv->set_key(std::string(key->get_string()));
    const boost::json::value* value = entry.get_object().if_contains("value");
    if (value != nullptr && !value->is_null()) {
      std::string name = std::string(where).append(" attribute ").append(key->get_string());
      read_any_value(*value, *kv->mutable_value(), name, fault, depth);
    }
    if (fault.any()) return;
  }
}

const char* const kSpanKinds[] = {"SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER",
                                  "SPAN_KIND_CLIENT",      "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"};
const char* const kStatusCodes[] = {"STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"};

void read_span(const boost::json::value& json, pb_trace::Span& span, SpanFault& fault) {
  if (!json.is_object()) return fault.set("not an object");
  const boost::json::object& object = json.get_object();
  read_id(object, "traceId", 16, span.mutable_trace_id(), fault);
  read_id(object, "spanId", 8, span.mutable_span_id(), fault);
  read_id(object, "parentSpanId", 8, span.mutable_parent_span_id(), fault);
  if (const boost::json::value* name = object.if_contains("name"); name != nullptr && !name->is_null()) {
    if (!name->is_string()) return fault.set("name is not a string");
    span.set_name(std::string(name->get_string()));
  }
  if (const boost::json::value* kind = object.if_contains("kind"); kind != nullptr && !kind->is_null()) {
    const auto value = enum_value(*kind, kSpanKinds, 6);
    if (!value) return fault.set("kind is not a SpanKind");
    span.set_kind(static_cast<pb_trace::Span::SpanKind>(*value));
  }
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  read_time(object, "startTimeUnixNano", start, fault);
  read_time(object, "endTimeUnixNano", end, fault);
  span.set_start_time_unix_nano(start);
  span.set_end_time_unix_nano(end);
  read_key_values(object.if_contains("attributes"), *span.mutable_attributes(), "span", fault, 0);
  if (const boost::json::value* events = object.if_contains("events"); events != nullptr && !events->is_null()) {
    if (!events->is_array()) return fault.set("events is not a list");
    for (const boost::json::value& event_json : events->get_array()) {
      if (!event_json.is_object()) return fault.set("an event is not an object");
      const boost::json::object& event_object = event_json.get_object();
      pb_trace::Span::Event* event = span.add_events();
      std::uint64_t time = 0;
      read_time(event_object, "timeUnixNano", time, fault);
      event->set_time_unix_nano(time);
      if (const boost::json::value* name = event_object.if_contains("name"); name != nullptr && name->is_string())
        event->set_name(std::string(name->get_string()));
      read_key_values(event_object.if_contains("attributes"), *event->mutable_attributes(), "event", fault, 0);
      if (fault.any()) return;
    }
  }
  if (const boost::json::value* status = object.if_contains("status"); status != nullptr && !status->is_null()) {
    if (!status->is_object()) return fault.set("status is not an object");
    if (const boost::json::value* code = status->get_object().if_contains("code"); code != nullptr && !code->is_null()) {
      const auto value = enum_value(*code, kStatusCodes, 3);
      if (!value) return fault.set("status.code is not a StatusCode");
      span.mutable_status()->set_code(static_cast<pb_trace::Status::StatusCode>(*value));
    }
    if (const boost::json::value* message = status->get_object().if_contains("message"); message != nullptr && message->is_string())
      span.mutable_status()->set_message(std::string(message->get_string()));
  }
}

const boost::json::array* list_member(const boost::json::object& object, std::string_view key, std::string_view where) {
  const boost::json::value* value = object.if_contains(key);
  if (value == nullptr || value->is_null()) return nullptr;
  if (!value->is_array()) throw OtlpFormatError(std::string(where) + "." + std::string(key) + " is not a list");
  return &value->get_array();
}

const boost::json::object* object_member(const boost::json::object& object, std::string_view key, std::string_view where) {
  const boost::json::value* value = object.if_contains(key);
  if (value == nullptr || value->is_null()) return nullptr;
  if (!value->is_object()) throw OtlpFormatError(std::string(where) + "." + std::string(key) + " is not an object");
  return &value->get_object();
}

// A resource's or scope's attributes; a malformed one fails the export (every span would carry it).
void read_header_attributes(const boost::json::object& object, google::protobuf::RepeatedPtrField<pb_common::KeyValue>& out,
                            const std::string& where) {
  SpanFault fault;
  read_key_values(object.if_contains("attributes"), out, where, fault, 0);
  if (fault.any()) throw OtlpFormatError(fault.reason());
}

}  // namespace

DecodedSpans decode_json_request(std::string_view body) {
  boost::json::error_code ec;
  boost::json::parse_options options;
  options.max_depth = 256;  // attributes may nest lists and maps; read_any_value stops at 64 levels
  const boost::json::value document = krino::json::parse(body, ec, {}, options);
  if (ec) throw OtlpFormatError("the body is not JSON: " + ec.message());
  if (!document.is_object()) throw OtlpFormatError("the body is not an ExportTraceServiceRequest object");
  pb_collector::ExportTraceServiceRequest request;
  Rejections rejections;
  SpanOrigins origins;
  const boost::json::array* resources = list_member(document.get_object(), "resourceSpans", "request");
  int r = -1;
  for (const boost::json::value& resource_json : resources != nullptr ? *resources : boost::json::array()) {
    ++r;
    const std::string resource_where = "resourceSpans[" + std::to_string(r) + "]";
    if (!resource_json.is_object()) throw OtlpFormatError(resource_where + " is not an object");
    pb_trace::ResourceSpans* resource = request.add_resource_spans();
    origins.emplace_back();
    if (const boost::json::object* header = object_member(resource_json.get_object(), "resource", resource_where))
      read_header_attributes(*header, *resource->mutable_resource()->mutable_attributes(), resource_where + ".resource");
    // instrumentationLibrarySpans: the name before OTLP 0.15, which old exporters still send.
    const boost::json::array* scopes = list_member(resource_json.get_object(), "scopeSpans", resource_where);
    if (scopes == nullptr) scopes = list_member(resource_json.get_object(), "instrumentationLibrarySpans", resource_where);
    int s = -1;
    for (const boost::json::value& scope_json : scopes != nullptr ? *scopes : boost::json::array()) {
      ++s;
      const std::string scope_where = resource_where + ".scopeSpans[" + std::to_string(s) + "]";
      if (!scope_json.is_object()) throw OtlpFormatError(scope_where + " is not an object");
      pb_trace::ScopeSpans* scope = resource->add_scope_spans();
      origins.back().emplace_back();
      const boost::json::object* scope_header = object_member(scope_json.get_object(), "scope", scope_where);
      if (scope_header == nullptr) scope_header = object_member(scope_json.get_object(), "instrumentationLibrary", scope_where);
      if (scope_header != nullptr) {
        if (const boost::json::value* name = scope_header->if_contains("name"); name != nullptr && name->is_string())
          scope->mutable_scope()->set_name(std::string(name->get_string()));
        if (const boost::json::value* version = scope_header->if_contains("version"); version != nullptr && version->is_string())
          scope->mutable_scope()->set_version(std::string(version->get_string()));
        read_header_attributes(*scope_header, *scope->mutable_scope()->mutable_attributes(), scope_where + ".scope");
      }
      const boost::json::array* spans = list_member(scope_json.get_object(), "spans", scope_where);
      int i = -1;
      for (const boost::json::value& span_json : spans != nullptr ? *spans : boost::json::array()) {
        ++i;
        pb_trace::Span span;
        SpanFault fault;
        read_span(span_json, span, fault);
        if (fault.any()) {
          rejections.add(span_place(r, s, i), fault.reason());
          continue;
        }
        *scope->add_spans() = std::move(span);
        origins.back().back().push_back(i);
      }
    }
  }
  return request_spans(request, rejections, &origins);
}

}  // namespace krino::core::otlp
