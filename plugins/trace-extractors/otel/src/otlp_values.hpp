// The spellings OTLP/JSON allows for one value, read into plain JSON and numbers:
//   AnyValue      {"stringValue"} {"boolValue"} {"intValue": "42" | 42} {"doubleValue"}
//                 {"arrayValue": {"values": [...]}} {"kvlistValue": {"values": [{key, value}]}} {"bytesValue"}
//   ids           hex (either case, as the OTLP/JSON spec writes them) or base64 (as protobuf's
//                 MessageToJson writes bytes); both become lower-case hex
//   times         "startTimeUnixNano" as a decimal string or a number
//   enums         "kind": "SPAN_KIND_CLIENT" or 3; status "code": "STATUS_CODE_ERROR" or 2
#ifndef KRINO_OTEL_OTLP_VALUES_HPP
#define KRINO_OTEL_OTLP_VALUES_HPP

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace krino::otel {

// An AnyValue as plain JSON (an empty AnyValue is null). A value that is not an object is taken as
// already plain (span attributes written as a flat map).
boost::json::value any_value(const boost::json::value& value);

// An OTLP attribute list ([{"key", "value": AnyValue}]) as an object; a plain object is taken as it is.
boost::json::object attributes(const boost::json::value* list);

// A trace or span id as lower-case hex; `bytes` is its length in bytes (16 or 8). An id in neither
// spelling is returned unchanged.
std::string normalize_id(std::string_view id, std::size_t bytes);

// Nanoseconds since the epoch, from a number or a decimal string.
std::optional<uint64_t> unix_nanos(const boost::json::value* value);

// The enum's short name: "CLIENT" for "SPAN_KIND_CLIENT" or 3; "ERROR" for "STATUS_CODE_ERROR" or 2.
std::string span_kind(const boost::json::value* value);
std::string status_code(const boost::json::value* value);

}  // namespace krino::otel

#endif  // KRINO_OTEL_OTLP_VALUES_HPP
