#include "krino/core/llm/anthropic_provider.hpp"

#include "provider_json.hpp"

namespace krino::core {
namespace {

namespace json = boost::json;

}  // namespace

ProviderHttpRequest AnthropicProvider::encode(const JudgeRequest& request) const {
  std::vector<JudgeMessage> messages = request.messages;
  if (request.json_reply) provider_json::add_json_instruction(messages, kJsonReplyInstruction);

  // The Messages API takes the system prompt apart from the turns; several system messages join.
  std::string system;
  json::array turns;
  for (const auto& message : messages) {
    if (message.role == "system") {
      if (!system.empty()) system += "\n\n";
      system += message.content;
    } else {
      turns.push_back(json::object{{"role", message.role}, {"content", message.content}});
    }
  }
  if (turns.empty()) throw InvalidJudgeRequest("judge request: an anthropic judge needs a user message besides the system prompt");

  json::object body;
  body["model"] = config().model;
  body["max_tokens"] = request.max_tokens.value_or(1024);  // required by the API
  if (!system.empty()) body["system"] = system;
  body["messages"] = std::move(turns);
  body["temperature"] = provider_json::wire_number(request.temperature);
  if (!request.tools.empty()) {
    json::array tools;
    for (const auto& tool : request.tools) {
      json::object entry{{"name", tool.name}, {"input_schema", tool.parameters}};
      if (!tool.description.empty()) entry["description"] = tool.description;
      tools.push_back(std::move(entry));
    }
    body["tools"] = std::move(tools);
  }
  // "required" is Anthropic's "any": call some tool.
  if (request.tool_choice == "auto") body["tool_choice"] = json::object{{"type", "auto"}};
  else if (request.tool_choice == "none") body["tool_choice"] = json::object{{"type", "none"}};
  else if (request.tool_choice == "required") body["tool_choice"] = json::object{{"type", "any"}};
  else if (!request.tool_choice.empty()) body["tool_choice"] = json::object{{"type", "tool"}, {"name", request.tool_choice}};

  ProviderHttpRequest http;
  http.url = config().base_url.with_path("/messages");
  http.headers = {{"Content-Type", "application/json"},
                  {"Accept", "application/json"},
                  {"anthropic-version", std::string(kApiVersion)}};
  if (!config().api_key.empty()) http.headers.push_back({"x-api-key", config().api_key.reveal()});
  http.body = json::serialize(body);
  return http;
}

ProviderReply AnthropicProvider::parse_reply(std::string_view body) const {
  provider_json::ReplyArena arena;
  auto parsed = provider_json::parse(body, arena.storage());
  if (!parsed || !parsed->is_object()) reject_reply("the reply is not a JSON object", body);
  if (provider_json::text(provider_json::field(&*parsed, "type")) == std::optional<std::string>("error"))
    reject_reply("the provider answered with an error", body);
  const auto* content = provider_json::field(&*parsed, "content");
  if (content == nullptr || !content->is_array()) reject_reply("the reply has no content array", body);

  ProviderReply reply;
  bool any_text = false;
  for (const auto& block : content->get_array()) {
    const auto type = provider_json::text(provider_json::field(&block, "type"));
    if (type == std::optional<std::string>("tool_use")) {
      auto name = provider_json::text(provider_json::field(&block, "name"));
      if (!name) reject_reply("a tool_use block has no name", body);
      const auto* input = provider_json::field(&block, "input");
      reply.tool_calls.push_back({provider_json::text(provider_json::field(&block, "id")).value_or(""), *name,
                                  input == nullptr || input->is_null() ? std::string("{}") : json::serialize(*input)});
      continue;
    }
    if (type != std::optional<std::string>("text")) continue;
    auto text = provider_json::text(provider_json::field(&block, "text"));
    if (!text) reject_reply("a text block has no text", body);
    reply.content += *text;
    any_text = true;
  }
  if (!any_text && reply.tool_calls.empty()) reject_reply("the reply has no text block", body);
  reply.model = provider_json::text(provider_json::field(&*parsed, "model")).value_or(config().model);
  reply.stop_reason = provider_json::text(provider_json::field(&*parsed, "stop_reason")).value_or("");
  const auto* usage = provider_json::field(&*parsed, "usage");
  reply.tokens_in = provider_json::count(provider_json::field(usage, "input_tokens"));
  reply.tokens_out = provider_json::count(provider_json::field(usage, "output_tokens"));
  return reply;
}

}  // namespace krino::core
