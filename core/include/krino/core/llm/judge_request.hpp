#pragma once
// A krino.judgerequest/1 document (sdk/schemas/judgerequest.json) read and merged with its judge's
// configuration: what every provider turns into its own wire format. Per-request temperature,
// max_tokens and seed win over the configured ones.
#include "krino/core/llm/llm_config.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace krino::core {

struct JudgeMessage {
  std::string role;  // "system", "user" or "assistant"
  std::string content;
};

// A tool the model may call (function calling), in krino's provider-neutral form; each provider
// writes it in its own shape. Judges rarely need tools; the model-calling tasks do.
struct JudgeTool {
  std::string name;
  std::string description;
  boost::json::object parameters;  // a JSON Schema of the arguments; {"type": "object"} when none was given
};

struct JudgeRequest {
  std::vector<JudgeMessage> messages;
  std::vector<JudgeTool> tools;
  std::string tool_choice;  // "" (the provider's default), "auto", "none", "required", or one tool's name
  bool json_reply = false;  // response_format "json"
  double temperature = 0.0;
  std::optional<std::int64_t> seed;
  std::optional<std::int64_t> max_tokens;
};

// The plugin's request does not follow krino.judgerequest/1. The message says which field is wrong.
class InvalidJudgeRequest : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

JudgeRequest resolve_judge_request(const boost::json::object& request, const LlmConfig& config);

}  // namespace krino::core
