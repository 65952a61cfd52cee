#include "reliability_judge.h"

#include "blank_text.h"

#include <krino/json_extract.hpp>
#include <krino/support/prompt_template.hpp>

#include <boost/json.hpp>

#include <utility>

namespace krino::agent {
namespace {

std::string lower_trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\n')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n')) text.remove_suffix(1);
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// 1, 1.0, true, "1", "yes", "true" pass; anything else, and a missing key, fails.
bool passed(const boost::json::object& reply, std::string_view key) {
  const boost::json::value* value = reply.if_contains(key);
  if (value == nullptr) return false;
  if (value->is_bool()) return value->get_bool();
  if (value->is_int64()) return value->get_int64() == 1;
  if (value->is_uint64()) return value->get_uint64() == 1;
  if (value->is_double()) return value->get_double() == 1.0;
  if (value->is_string()) {
    const std::string text = lower_trimmed(value->get_string());
    return text == "1" || text == "yes" || text == "true";
  }
  return false;
}

}  // namespace

ReliabilityJudge::ReliabilityJudge(const Config& config, std::string_view evaluator, std::string_view builtin_prompt,
                                   const Variables& variables)
    : evaluator_(evaluator), enabled_(config.get_bool("llm_checks")) {
  if (config.has("judge")) {
    std::string name = config.get_string("judge");
    if (name.empty()) throw invalid_argument("option 'judge' must not be empty (leave it out for the default judge)");
    judge_ = std::move(name);
  }
  if (config.has("prompt")) {
    const std::string text = config.get_string("prompt");
    if (is_blank_text(text)) throw invalid_argument("option 'prompt' must not be empty");
    prompt_ = std::make_shared<const PromptTemplate>(text, variables, "option 'prompt'");
  } else {
    prompt_ = std::make_shared<const PromptTemplate>(builtin_prompt, variables, "built-in prompt of " + evaluator_);
  }
  if (!enabled_ && (judge_ || config.has("prompt")))
    throw invalid_argument("options 'judge' and 'prompt' take effect only with 'llm_checks: true'");
}

std::string ReliabilityJudge::prompt(const Values& values) const { return prompt_->render(values); }

std::vector<bool> ReliabilityJudge::ask(const CallContext& ctx, const std::string& prompt,
                                        const std::vector<std::string_view>& keys, std::string_view tool) const {
  boost::json::object request;
  if (judge_) request["judge"] = *judge_;
  request["messages"] = boost::json::array{boost::json::object{{"role", "user"}, {"content", prompt}}};
  request["response_format"] = "json";

  boost::json::value response;
  try {
    response = ctx.judge(request);
  } catch (const Error& e) {
    throw Error(e.code(), evaluator_ + ": the judge could not answer for tool '" + std::string(tool) + "': " + e.what());
  }
  const boost::json::object* document = response.if_object();
  const boost::json::value* content = document != nullptr ? document->if_contains("content") : nullptr;
  if (content == nullptr || !content->is_string())
    throw Error(KRINO_INTERNAL, evaluator_ + ": the judge response has no 'content' text");
  const json::JsonExtraction parsed = json::extract_json(content->get_string(), json::JsonShape::object);
  if (!parsed.value)
    throw Error(KRINO_INTERNAL, evaluator_ + ": the judge's reply for tool '" + std::string(tool) +
                                    "' could not be read (" + parsed.failure + "): \"" +
                                    json::reply_excerpt(content->get_string()) + "\"");
  std::vector<bool> verdicts;
  verdicts.reserve(keys.size());
  for (std::string_view key : keys) verdicts.push_back(passed(parsed.value->get_object(), key));
  return verdicts;
}

}  // namespace krino::agent
