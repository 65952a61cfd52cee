// Chat messages as LangChain writes them (and LangSmith stores them), into a TraceBuilder:
//   serialized   {"lc": 1, "type": "constructor", "id": [..., "AIMessage"], "kwargs": {...}}
//   dict         {"type": "ai", "data": {...}}                   (messages_to_dict)
//   flat         {"type": "ai" | "human" | "system" | "tool", "content", ...}
//   OpenAI       {"role": ...}                                   (read by openai_messages.hpp)
// An AI message's calls come from "tool_calls" ([{name, args, id}]), else from
// additional_kwargs.tool_calls (the provider's raw form); "invalid_tool_calls" keep their raw
// arguments text (tool_arguments.hpp). A tool message answers its tool_call_id; status "error"
// marks the call's result as an error. additional_kwargs.reasoning_content is a reasoning step.
#ifndef KRINO_LANGSMITH_LANGCHAIN_MESSAGES_HPP
#define KRINO_LANGSMITH_LANGCHAIN_MESSAGES_HPP

#include <krino/support/trace/trace_builder.hpp>
#include <krino/support/trace/usage.hpp>

#include <boost/json.hpp>

#include <string>

namespace krino::langsmith {

// Whether `value` is a message in one of the forms above.
bool is_langchain_message(const boost::json::value& value);

// Adds one message; `where` names it in notes and errors. Throws krino::Error for a value that is
// not an object.
void add_langchain_message(trace::TraceBuilder& builder, const boost::json::value& value, const std::string& where);

// The usage_metadata (and model name) an AI message carries, as a model call; empty when none.
trace::ModelCall message_model_call(const boost::json::value& message);

}  // namespace krino::langsmith

#endif  // KRINO_LANGSMITH_LANGCHAIN_MESSAGES_HPP
