// The `otel` trace extractor: OpenTelemetry spans with the GenAI semantic conventions, as OTLP/JSON
// exports (ExportTraceServiceRequest), lists of spans, one span's attribute map, or a bare list of
// GenAI messages (the value of gen_ai.input.messages followed by gen_ai.output.messages).
//
// From spans:
//   conversation  gen_ai.system_instructions, gen_ai.input.messages and the first of
//                 gen_ai.output.messages of the last model span (chat, text_completion,
//                 generate_content) that records them (else of any span that does); on the span
//                 or on one of its events. Values may be JSON strings or structured.
//   tool calls    the conversation's tool_call parts, bound to tool_call_response parts per turn;
//                 execute_tool spans fill in results (gen_ai.tool.call.result, error status) of the
//                 calls with their gen_ai.tool.call.id, and calls no message mentions are added
//                 from the spans (name, arguments, result), in start order.
//   usage         gen_ai.usage.* of the innermost spans that report it (a span whose descendants
//                 report usage is taken to aggregate them), one model call each.
//   latency       from the earliest start to the latest end of all spans.
//   without GenAI messages, the input and output of the root span (else of any span) from the
//   first attribute present of krino.input, dokimos.input, input.value, gen_ai.prompt, llm.input,
//   input, prompt (output: the same with output / completion).
#ifndef KRINO_OTEL_OTEL_EXTRACTOR_HPP
#define KRINO_OTEL_OTEL_EXTRACTOR_HPP

#include <krino/trace/trace.hpp>

#include <boost/json.hpp>

namespace krino::otel {

class OtelExtractor {
 public:
  // 95 for OTLP/JSON with gen_ai.* attributes, 90 for a span list with them or an attribute map,
  // 85 for a GenAI message list, 60 (OTLP) or 55 (span list) without GenAI attributes, 0 otherwise.
  static int detect(const boost::json::value& raw);
  static trace::Trace extract(const boost::json::value& raw);
};

}  // namespace krino::otel

#endif  // KRINO_OTEL_OTEL_EXTRACTOR_HPP
