#pragma once
// POST {base_url}/responses with Authorization: Bearer: OpenAI's Responses API. System messages
// become `instructions`; the rest become `input` messages. JSON replies ask for a json_object text
// format. The Responses API takes no seed, so none is sent (a configured seed still keys the cache).
#include "krino/core/llm/llm_provider.hpp"

namespace krino::core {

class OpenAiResponsesProvider final : public LlmProvider {
 public:
  using LlmProvider::LlmProvider;
  ProviderHttpRequest encode(const JudgeRequest& request) const override;
  // Text is every output_text of every message item, joined; function_call items are tool calls;
  // reasoning items are skipped.
  ProviderReply parse_reply(std::string_view body) const override;
};

}  // namespace krino::core
