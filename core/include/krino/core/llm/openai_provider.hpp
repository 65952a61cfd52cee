#pragma once
// POST {base_url}/chat/completions with Authorization: Bearer. JSON replies use
// response_format {"type": "json_object"}.
#include "krino/core/llm/llm_provider.hpp"

namespace krino::core {

class OpenAiProvider final : public LlmProvider {
 public:
  using LlmProvider::LlmProvider;
  ProviderHttpRequest encode(const JudgeRequest& request) const override;
  ProviderReply parse_reply(std::string_view body) const override;
};

}  // namespace krino::core
