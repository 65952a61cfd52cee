#include "krino/core/llm/openai_responses_provider.hpp"

#include "provider_json.hpp"

namespace krino::core {
namespace {

namespace json = boost::json;

}  // namespace

ProviderHttpRequest OpenAiResponsesProvider::encode(const JudgeRequest& request) const {
  std::vector<JudgeMessage> messages = request.messages;
  if (request.json_reply && !provider_json::mentions_json(messages))
    provider_json::add_json_instruction(messages, kJsonReplyInstruction);

  std::string instructions;
  json::array input;
  for (const auto& message : messages) {
    if (message.role == "system") {
      if (!instructions.empty()) instructions += "\n\n";
      instructions += message.content;
    } else {
      input.push_back(json::object{{"role", message.role}, {"content", message.content}});
    }
  }
  if (input.empty()) throw InvalidJudgeRequest("judge request: the Responses API needs a user message besides the instructions");

  json::object body;
  body["model"] = config().model;
  if (!instructions.empty()) body["instructions"] = instructions;
  body["input"] = std::move(input);
  body["temperature"] = provider_json::wire_number(request.temperature);
  if (request.max_tokens) body["max_output_tokens"] = *request.max_tokens;
  if (request.json_reply) body["text"] = json::object{{"format", json::object{{"type", "json_object"}}}};
  if (!request.tools.empty()) {
    json::array tools;
    for (const auto& tool : request.tools) {
      json::object entry{{"type", "function"}, {"name", tool.name}, {"parameters", tool.parameters}};
      if (!tool.description.empty()) entry["description"] = tool.description;
      tools.push_back(std::move(entry));
    }
    body["tools"] = std::move(tools);
  }
  if (request.tool_choice == "auto" || request.tool_choice == "none" || request.tool_choice == "required")
    body["tool_choice"] = request.tool_choice;
  else if (!request.tool_choice.empty())
    body["tool_choice"] = json::object{{"type", "function"}, {"name", request.tool_choice}};
  body["store"] = false;  // an evaluation call has no reason to be kept on the provider's side

  ProviderHttpRequest http;
  http.url = config().base_url.with_path("/responses");
  http.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json"}};
  if (!config().api_key.empty()) http.headers.push_back({"Authorization", "Bearer " + config().api_key.reveal()});
  http.body = json::serialize(body);
  return http;
}

ProviderReply OpenAiResponsesProvider::parse_reply(std::string_view body) const {
  provider_json::ReplyArena arena;
  auto parsed = provider_json::parse(body, arena.storage());
  if (!parsed || !parsed->is_object()) reject_reply("the reply is not a JSON object", body);
  if (const auto* error = provider_json::field(&*parsed, "error"); error != nullptr && !error->is_null())
    reject_reply("the provider answered with an error", body);
  const auto* output = provider_json::field(&*parsed, "output");
  if (output == nullptr || !output->is_array()) reject_reply("the reply has no output array", body);

  ProviderReply reply;
  bool any_message = false;
  for (const auto& item : output->get_array()) {
    const auto type = provider_json::text(provider_json::field(&item, "type")).value_or("");
    if (type == "function_call") {
      auto name = provider_json::text(provider_json::field(&item, "name"));
      if (!name) reject_reply("a function_call item has no name", body);
      // call_id links the call to its output; the item's own id (fc_...) does not.
      reply.tool_calls.push_back({provider_json::text(provider_json::field(&item, "call_id")).value_or(""), *name,
                                  provider_json::text(provider_json::field(&item, "arguments")).value_or("{}")});
    } else if (type == "message") {
      any_message = true;
      const auto* content = provider_json::field(&item, "content");
      if (content == nullptr || !content->is_array()) continue;
      for (const auto& part : content->get_array()) {
        const auto part_type = provider_json::text(provider_json::field(&part, "type")).value_or("");
        if (part_type == "output_text") reply.content += provider_json::text(provider_json::field(&part, "text")).value_or("");
        else if (part_type == "refusal")
          reject_reply("the model refused: " + provider_json::text(provider_json::field(&part, "refusal")).value_or(""), body);
      }
    }
  }
  if (!any_message && reply.tool_calls.empty()) reject_reply("the reply has neither a message nor a function call", body);
  reply.model = provider_json::text(provider_json::field(&*parsed, "model")).value_or(config().model);
  // "completed", or "incomplete" with a reason such as max_output_tokens.
  reply.stop_reason = provider_json::text(provider_json::field(&*parsed, "status")).value_or("");
  if (auto reason = provider_json::text(provider_json::field(provider_json::field(&*parsed, "incomplete_details"), "reason")))
    reply.stop_reason = *reason;
  const auto* usage = provider_json::field(&*parsed, "usage");
  reply.tokens_in = provider_json::count(provider_json::field(usage, "input_tokens"));
  reply.tokens_out = provider_json::count(provider_json::field(usage, "output_tokens"));
  return reply;
}

}  // namespace krino::core
