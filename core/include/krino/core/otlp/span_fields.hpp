#pragma once
// What the server reads from a span's attributes besides storing them (docs/server.md, Traces):
//   project  the resource attribute krino.project, else dokimos.project, dokimos.project.name (the
//            Dokimos server's names), else service.name (every OpenTelemetry SDK sets it); a
//            string. A span attribute does not count: the project is the service's, not a span's.
//   input    the first present of krino.input, dokimos.input, input.value, gen_ai.prompt, llm.input,
//            input, prompt, then gen_ai.input.messages (GenAI semantic conventions);
//   output   the same with output / completion, then gen_ai.output.messages.
// A string value is taken as it is; any other value as its JSON text. These are the keys the otel
// trace extractor reads a root span's input and output from; the canonical trace of a whole trace
// is that extractor's (trace_routes.hpp), not computed here.
#include <boost/json/object.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace krino::core::otlp {

// The keys, in priority order (the decoders read them straight from the message).
std::span<const std::string_view> project_keys();
std::span<const std::string_view> input_keys();
std::span<const std::string_view> output_keys();

// The same read from attributes already in JSON.
std::optional<std::string> project_of(const boost::json::object& resource_attributes);
std::optional<std::string> input_of(const boost::json::object& span_attributes);
std::optional<std::string> output_of(const boost::json::object& span_attributes);

}  // namespace krino::core::otlp
