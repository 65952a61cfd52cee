// The `langchain4j` trace extractor: chat messages as LangChain4j's serializer writes them
// (ChatMessageSerializer / the Jackson codecs: a chat memory store keeps exactly this JSON).
//   [message, ...], a single message, or {"messages": [...]}
//     {"type": "SYSTEM", "text"}
//     {"type": "USER", "contents": [{"type": "TEXT", "text"}], "name"?}      (older: "text")
//     {"type": "AI", "text"?, "thinking"?, "toolExecutionRequests": [{"id"?, "name", "arguments": "<JSON>"}]}
//     {"type": "TOOL_EXECUTION_RESULT", "id", "toolName", "text"}             (newer: "contents")
//     {"type": "CUSTOM", "attributes"}                                        (not a chat turn: noted)
//   a result    {"content", "toolExecutions": [{"request": {"id", "name", "arguments"}, "result"}],
//                "tokenUsage": {"inputTokenCount", "outputTokenCount"}, "finishReason"?}
//   a response  {"aiMessage": {...}, "tokenUsage"?, "modelName"?} (or "metadata": {"tokenUsage", "modelName"})
// Results without an id bind to the call of their tool name within the turn.
#ifndef KRINO_LANGCHAIN4J_LANGCHAIN4J_EXTRACTOR_HPP
#define KRINO_LANGCHAIN4J_LANGCHAIN4J_EXTRACTOR_HPP

#include <krino/trace/trace.hpp>

#include <boost/json.hpp>

namespace krino::langchain4j {

class LangChain4jExtractor {
 public:
  // 90 for a message list, 85 for one message, 80 for a result or response, 0 otherwise.
  static int detect(const boost::json::value& raw);
  static trace::Trace extract(const boost::json::value& raw);
};

}  // namespace krino::langchain4j

#endif  // KRINO_LANGCHAIN4J_LANGCHAIN4J_EXTRACTOR_HPP
