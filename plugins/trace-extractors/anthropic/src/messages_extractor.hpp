// The `anthropic` trace extractor: the Anthropic Messages API.
//   a reply body        {"type": "message", "role": "assistant", "content": [blocks], "usage", "model"}
//   a request body      {"model", "system"?, "messages": [...]}
//   a message list      [{"role": "user" | "assistant", "content": "..." | [blocks]}, ...]
//   recorded exchanges  VCR {"interactions": [...]}, {"request", "response"}, or a list of pairs
// Blocks: text, thinking (a reasoning step), redacted_thinking (noted), tool_use and server_tool_use
// (calls; "input" is already an object), tool_result (the result of a call, by tool_use_id, with
// is_error kept as the call's metadata.isError) and the server tools' *_tool_result blocks. A user
// message's tool_result blocks become tool messages of the conversation, its text a user message.
#ifndef KRINO_ANTHROPIC_MESSAGES_EXTRACTOR_HPP
#define KRINO_ANTHROPIC_MESSAGES_EXTRACTOR_HPP

#include <krino/trace/trace.hpp>

#include <boost/json.hpp>

namespace krino::anthropic {

class MessagesExtractor {
 public:
  // 95 for a reply body or a recording with Messages replies, 80 for a message list or request
  // with Anthropic content blocks, 0 otherwise (plain text chat is left to openai_chat).
  static int detect(const boost::json::value& raw);
  static trace::Trace extract(const boost::json::value& raw);
};

}  // namespace krino::anthropic

#endif  // KRINO_ANTHROPIC_MESSAGES_EXTRACTOR_HPP
