// The `openai_responses` trace extractor: the OpenAI Responses API.
//   a response body     {"object": "response", "output": [items], "usage", "model"}
//   a request body      {"model", "instructions"?, "input": "text" | [items]}
//   an item list        [{"role", "content"} | {"type": "function_call", ...} | ...]
//   recorded exchanges  VCR {"interactions": [...]}, {"request", "response"}, or a list of pairs
// Items: messages (input_text / output_text / refusal parts), function_call (linked to its output
// by call_id, not by the item id), function_call_output, custom_tool_call(_output), reasoning
// (summary and reasoning text), mcp_call, and the built-in tools (web_search_call, file_search_call,
// code_interpreter_call, computer_call, image_generation_call, local_shell_call). Consecutive
// assistant items (a message and the calls after it) form one assistant turn.
#ifndef KRINO_OPENAI_RESPONSES_EXTRACTOR_HPP
#define KRINO_OPENAI_RESPONSES_EXTRACTOR_HPP

#include <krino/trace/trace.hpp>

#include <boost/json.hpp>

namespace krino::openai {

class ResponsesExtractor {
 public:
  // 95 for a response body or a recording with one, 85 for an output list without the envelope,
  // 80 for an item list with typed items, 70 for a request body with typed items, 35 for a
  // request with only plain messages, 0 otherwise.
  static int detect(const boost::json::value& raw);
  static trace::Trace extract(const boost::json::value& raw);
};

}  // namespace krino::openai

#endif  // KRINO_OPENAI_RESPONSES_EXTRACTOR_HPP
