#pragma once
// POST {base_url}/messages with x-api-key and anthropic-version. System messages move to the
// top-level "system" field; the API has no seed and no JSON mode, so JSON is asked for in words.
#include "krino/core/llm/llm_provider.hpp"

namespace krino::core {

class AnthropicProvider final : public LlmProvider {
 public:
  static constexpr std::string_view kApiVersion = "2023-06-01";

  using LlmProvider::LlmProvider;
  ProviderHttpRequest encode(const JudgeRequest& request) const override;
  ProviderReply parse_reply(std::string_view body) const override;
};

}  // namespace krino::core
