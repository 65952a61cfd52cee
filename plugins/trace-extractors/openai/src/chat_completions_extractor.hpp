// The `openai_chat` trace extractor: OpenAI Chat Completions in every shape users keep it.
//   a reply body                {"object": "chat.completion", "choices": [{"message": ...}], "usage", "model"}
//   a request body              {"model", "messages": [...]}
//   a message list              [{"role": ...}, ...]            (tau-bench's "traj", logged histories)
//   recorded exchanges          VCR {"interactions": [...]}, {"request", "response"}, or a list of pairs
// Messages are read by <krino/support/trace/openai_messages.hpp>; tool results bind per assistant turn.
#ifndef KRINO_OPENAI_CHAT_COMPLETIONS_EXTRACTOR_HPP
#define KRINO_OPENAI_CHAT_COMPLETIONS_EXTRACTOR_HPP

#include <krino/trace/trace.hpp>

#include <boost/json.hpp>

namespace krino::openai {

class ChatCompletionsExtractor {
 public:
  // 95 for a reply body or a recording with Chat Completions replies, 80 for a message list or
  // request with tool traffic, 50 (list) or 40 (request) for plain chat that other chat formats
  // could also claim, 0 otherwise.
  static int detect(const boost::json::value& raw);
  static trace::Trace extract(const boost::json::value& raw);
};

// How much a message list looks like Chat Completions messages (0, 50 or 80); shared with the
// request-body check.
int chat_message_list_score(const boost::json::value& messages);

}  // namespace krino::openai

#endif  // KRINO_OPENAI_CHAT_COMPLETIONS_EXTRACTOR_HPP
