// The spans of a raw OTel document, with every OTLP spelling already normalised (otlp_values.hpp).
// Accepted documents:
//   {"resourceSpans": [{"resource", "scopeSpans" | "instrumentationLibrarySpans": [{"spans": [...]}]}]}
//   {"scopeSpans": [...]}                          one ResourceSpans
//   [span, ...]                                     spans on their own ({"spanId", "name", "attributes"})
//   {"gen_ai.operation.name": ..., ...}             one span's attributes as a flat map
#ifndef KRINO_OTEL_OTLP_SPAN_READER_HPP
#define KRINO_OTEL_OTLP_SPAN_READER_HPP

#include <boost/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace krino::otel {

struct SpanEvent {
  std::string name;
  boost::json::object attributes;
};

struct Span {
  std::size_t order = 0;  // position in the document
  std::string trace_id;   // lower-case hex ("" when absent)
  std::string span_id;
  std::string parent_span_id;
  std::string name;
  std::string kind;    // "CLIENT", "INTERNAL", ... ("" when absent)
  std::string status;  // "UNSET", "OK", "ERROR" ("" when absent)
  std::string status_message;
  std::optional<uint64_t> start_ns;
  std::optional<uint64_t> end_ns;
  boost::json::object attributes;
  std::vector<SpanEvent> events;
};

enum class SpanSource { otlp, span_list, attribute_map };

struct SpanDocument {
  SpanSource source = SpanSource::otlp;
  std::vector<Span> spans;  // in document order
};

// nullopt when `document` is none of the shapes above.
std::optional<SpanDocument> read_spans(const boost::json::value& document);

// Whether any attribute key (of a span or its events) starts with "gen_ai.".
bool has_genai_attributes(const SpanDocument& document);

}  // namespace krino::otel

#endif  // KRINO_OTEL_OTLP_SPAN_READER_HPP
