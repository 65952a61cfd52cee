// GenAI semantic-convention messages into a TraceBuilder: the values of gen_ai.input.messages,
// gen_ai.output.messages and gen_ai.system_instructions (schemas in the semconv repository).
//   message  {"role": "system" | "user" | "assistant" | "tool", "parts": [...], "name"?, "finish_reason"?}
//   parts    text {content}, reasoning {content}, tool_call {id, name, arguments},
//            tool_call_response {id, response}, server_tool_call {id, name, server_tool_call},
//            server_tool_call_response {id, server_tool_call_response}; blob, file, uri and unknown
//            parts carry no text and are left out.
#ifndef KRINO_OTEL_GENAI_MESSAGES_HPP
#define KRINO_OTEL_GENAI_MESSAGES_HPP

#include <krino/support/trace/trace_builder.hpp>

#include <boost/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace krino::otel {

// Whether `value` is a list of GenAI messages (objects with a string "role" and a "parts" list).
bool is_genai_message_list(const boost::json::value& value);

// Adds every message; `where` names the list in notes and errors. Throws krino::Error for a
// message that is not an object.
void add_genai_messages(trace::TraceBuilder& builder, const boost::json::array& messages, const std::string& where);

// Adds gen_ai.system_instructions (a list of parts, or text) as one system message.
void add_system_instructions(trace::TraceBuilder& builder, const boost::json::value& instructions);

// The value of an attribute that holds JSON: the structure itself, or a string holding it (the
// semconv allows both). nullopt when absent; a string that is not JSON is noted and read as absent.
std::optional<boost::json::value> json_attribute(const boost::json::object& attributes, std::string_view key,
                                                 trace::TraceBuilder& builder, const std::string& where);

}  // namespace krino::otel

#endif  // KRINO_OTEL_GENAI_MESSAGES_HPP
