#include "krino/core/llm/openai_provider.hpp"

#include "provider_json.hpp"

namespace krino::core {
namespace {

namespace json = boost::json;

}  // namespace

// The body is written straight into its text, in the bytes json::serialize gives for the same
// object (members in this order, strings escaped as Boost.JSON escapes them, a fractional number in
// Boost.JSON's form): building the object first cost about 21,000 instructions a judge call, half of
// it copying the prompt twice. Tools, rare in judge calls, are still serialised as values.
ProviderHttpRequest OpenAiProvider::encode(const JudgeRequest& request) const {
  // JSON mode answers 400 unless the prompt itself asks for JSON.
  std::vector<JudgeMessage> with_instruction;
  if (request.json_reply && !provider_json::mentions_json(request.messages)) {
    with_instruction = request.messages;
    provider_json::add_json_instruction(with_instruction, kJsonReplyInstruction);
  }
  const std::vector<JudgeMessage>& messages = with_instruction.empty() ? request.messages : with_instruction;

  std::string body;
  std::size_t text_size = config().model.size();
  for (const auto& message : messages) text_size += message.role.size() + message.content.size() + 32;
  body.reserve(text_size + 160);
  body += "{\"model\":";
  krino::json::append_json_string(body, config().model);
  body += ",\"messages\":[";
  for (std::size_t i = 0; i < messages.size(); ++i) {
    body += i == 0 ? "{\"role\":" : ",{\"role\":";
    krino::json::append_json_string(body, messages[i].role);
    body += ",\"content\":";
    krino::json::append_json_string(body, messages[i].content);
    body += '}';
  }
  body += "],\"temperature\":";
  provider_json::append_wire_number(body, request.temperature);
  if (request.seed) {
    body += ",\"seed\":";
    krino::event::append_integer(body, *request.seed);
  }
  if (request.max_tokens) {
    body += ",\"max_tokens\":";
    krino::event::append_integer(body, *request.max_tokens);
  }
  if (request.json_reply) body += ",\"response_format\":{\"type\":\"json_object\"}";
  if (!request.tools.empty()) {
    json::array tools;
    for (const auto& tool : request.tools) {
      json::object function{{"name", tool.name}, {"parameters", tool.parameters}};
      if (!tool.description.empty()) function["description"] = tool.description;
      tools.push_back(json::object{{"type", "function"}, {"function", std::move(function)}});
    }
    body += ",\"tools\":";
    body += json::serialize(tools);
  }
  if (request.tool_choice == "auto" || request.tool_choice == "none" || request.tool_choice == "required") {
    body += ",\"tool_choice\":";
    krino::json::append_json_string(body, request.tool_choice);
  } else if (!request.tool_choice.empty()) {
    body += ",\"tool_choice\":{\"type\":\"function\",\"function\":{\"name\":";
    krino::json::append_json_string(body, request.tool_choice);
    body += "}}";
  }
  body += '}';

  ProviderHttpRequest http;
  http.url = config().base_url.with_path("/chat/completions");
  http.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json"}};
  if (!config().api_key.empty()) http.headers.push_back({"Authorization", "Bearer " + config().api_key.reveal()});
  http.body = std::move(body);
  return http;
}

ProviderReply OpenAiProvider::parse_reply(std::string_view body) const {
  provider_json::ReplyArena arena;
  auto parsed = provider_json::parse(body, arena.storage());
  if (!parsed || !parsed->is_object()) reject_reply("the reply is not a JSON object", body);
  const auto* choices = provider_json::field(&*parsed, "choices");
  if (choices == nullptr || !choices->is_array() || choices->get_array().empty()) {
    if (provider_json::field(&*parsed, "error") != nullptr) reject_reply("the provider answered with an error", body);
    reject_reply("the reply has no choices", body);
  }
  const auto& choice = choices->get_array().front();
  const auto* message = provider_json::field(&choice, "message");
  ProviderReply reply;
  if (const auto* calls = provider_json::field(message, "tool_calls"); calls != nullptr && calls->is_array()) {
    for (const auto& call : calls->get_array()) {
      const auto* function = provider_json::field(&call, "function");
      auto name = provider_json::text(provider_json::field(function, "name"));
      if (!name) reject_reply("a tool call has no function name", body);
      const auto* arguments = provider_json::field(function, "arguments");
      // Arguments are a JSON string on the wire; a server that sends an object is read too.
      std::string text = arguments == nullptr || arguments->is_null() ? std::string("{}")
                         : arguments->is_string()                     ? std::string(arguments->get_string())
                                                                      : json::serialize(*arguments);
      reply.tool_calls.push_back({provider_json::text(provider_json::field(&call, "id")).value_or(""), *name, std::move(text)});
    }
  }
  auto content = provider_json::text(provider_json::field(message, "content"));
  if (!content && reply.tool_calls.empty()) {
    if (auto refusal = provider_json::text(provider_json::field(message, "refusal")))
      reject_reply("the model refused: " + *refusal, body);
    reject_reply("choices[0].message.content is not a string", body);
  }
  reply.content = content.value_or("");
  reply.model = provider_json::text(provider_json::field(&*parsed, "model")).value_or(config().model);
  reply.stop_reason = provider_json::text(provider_json::field(&choice, "finish_reason")).value_or("");
  const auto* usage = provider_json::field(&*parsed, "usage");
  reply.tokens_in = provider_json::count(provider_json::field(usage, "prompt_tokens"));
  reply.tokens_out = provider_json::count(provider_json::field(usage, "completion_tokens"));
  return reply;
}

}  // namespace krino::core
