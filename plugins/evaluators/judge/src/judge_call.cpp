#include "judge_call.h"

#include "judge_reply.h"
#include "prompts.h"

#include <krino/json_text.hpp>

#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

namespace krino::judge {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  return s;
}

}  // namespace

JudgeSettings read_judge_settings(const Config& config, std::string_view prompt_name, const Variables& variables) {
  return read_judge_settings(config, read_common_options(config), prompt_name, variables);
}

JudgeSettings read_judge_settings(const Config& config, CommonOptions common, std::string_view prompt_name,
                                  const Variables& variables) {
  JudgeSettings settings{std::move(common), std::nullopt, {}, read_voting_options(config)};
  if (config.has("judge")) {
    std::string judge = config.get_string("judge");
    if (judge.empty()) throw invalid_argument("option 'judge' must not be empty (leave it out for the default judge)");
    settings.judge = std::move(judge);
  }
  if (config.has("prompt")) {
    const std::string text = config.get_string("prompt");
    if (trim(text).empty()) throw invalid_argument("option 'prompt' must not be empty");
    settings.prompt = PromptTemplate(text, variables, "option 'prompt'");
  } else {
    const std::string_view text = builtin_prompt(prompt_name);
    if (text.empty()) throw Error(KRINO_INTERNAL, "no built-in prompt '" + std::string(prompt_name) + "'");
    settings.prompt = PromptTemplate(text, variables, "built-in prompt '" + std::string(prompt_name) + "'");
  }
  return settings;
}

boost::json::object ask_judge(const JudgeCall& call, const JudgeSettings& settings, std::string_view evaluator,
                              const std::string& prompt, std::string_view array_key) {
  boost::json::object request;
  if (settings.judge) request["judge"] = *settings.judge;
  boost::json::array messages;
  messages.push_back(boost::json::object{{"role", "user"}, {"content", prompt}});
  request["messages"] = std::move(messages);
  request["response_format"] = "json";
  if (call.seed) request["seed"] = *call.seed;
  ++call.calls;

  boost::json::value response;
  try {
    response = call.ctx.judge(request);
  } catch (const Error& e) {
    throw Error(e.code(), std::string(evaluator) + ": the judge could not answer: " + e.what());
  }
  const boost::json::object* object = response.if_object();
  const boost::json::value* content = object != nullptr ? object->if_contains("content") : nullptr;
  if (content == nullptr || !content->is_string())
    throw Error(KRINO_INTERNAL, std::string(evaluator) + ": the judge response has no 'content' text");
  const std::string_view text = content->get_string();
  ReplyJson parsed = extract_reply_object(text, array_key);
  if (!parsed.object)
    throw Error(KRINO_INTERNAL, std::string(evaluator) + ": the judge's reply could not be read (" + parsed.failure +
                                    "): \"" + reply_excerpt(text) + "\"");
  return std::move(*parsed.object);
}

void throw_unusable_reply(std::string_view evaluator, const std::string& why, const boost::json::object& reply) {
  throw Error(KRINO_INTERNAL, std::string(evaluator) + ": the judge's reply " + why + ": " +
                                  reply_excerpt(json::to_compact_json(reply)));
}

std::optional<double> reply_number(const boost::json::object& reply, std::string_view key) {
  const boost::json::value* value = reply.if_contains(key);
  if (value == nullptr) return std::nullopt;
  double number = 0.0;
  if (value->is_double()) number = value->get_double();
  else if (value->is_int64()) number = static_cast<double>(value->get_int64());
  else if (value->is_uint64()) number = static_cast<double>(value->get_uint64());
  else if (value->is_string()) {
    const std::string_view text = trim(value->get_string());
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (!std::isfinite(number)) return std::nullopt;
  return number;
}

std::optional<bool> reply_bool(const boost::json::object& reply, std::string_view key) {
  const boost::json::value* value = reply.if_contains(key);
  if (value == nullptr) return std::nullopt;
  if (value->is_bool()) return value->get_bool();
  if (value->is_string()) {
    const std::string text = lower(trim(value->get_string()));
    if (text == "true" || text == "yes") return true;
    if (text == "false" || text == "no") return false;
  }
  return std::nullopt;
}

std::string reply_string(const boost::json::object& reply, std::string_view key) {
  const boost::json::value* value = reply.if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->get_string()) : std::string();
}

}  // namespace krino::judge
