#include "rule_book.hpp"

#include <utility>

namespace krino::fake_llm {
namespace {

bool matches(const Match& match, const LlmRequest& request) {
  if (match.endpoint && *match.endpoint != request.endpoint) return false;
  if (match.model && *match.model != request.model) return false;
  if (match.contains && request.prompt.find(*match.contains) == std::string::npos) return false;
  return true;
}

// Without a default, an unmatched request is a loud 500 that says which prompt fell through,
// so a script author sees at once which rule is missing.
Reply unmatched_reply(const LlmRequest& request) {
  constexpr std::size_t shown = 80;
  Reply reply;
  reply.fault.kind = FaultKind::status;
  reply.fault.status = 500;
  reply.fault.message = "fake-llm: no rule matched the " + std::string(endpoint_name(request.endpoint)) +
                        " request for model \"" + request.model + "\" with prompt starting \"" +
                        request.prompt.substr(0, shown) + (request.prompt.size() > shown ? "...\"" : "\"");
  return reply;
}

}  // namespace

RuleBook::RuleBook(Script script) : script_(std::move(script)), uses_(script_.rules.size(), 0) {}

Choice RuleBook::choose(const LlmRequest& request) {
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < script_.rules.size(); ++i) {
    const Rule& rule = script_.rules[i];
    if (rule.times && uses_[i] >= *rule.times) continue;
    if (!matches(rule.match, request)) continue;
    ++uses_[i];
    return {rule.reply, static_cast<int>(i)};
  }
  if (script_.fallback) return {*script_.fallback, -1};
  // The app endpoint echoes what it was sent when nothing is scripted: a ready-made system under test.
  if (request.endpoint == Endpoint::app) return {Reply{}, -1};
  return {unmatched_reply(request), -1};
}

void RuleBook::replace(Script script) {
  std::lock_guard lock(mutex_);
  script_ = std::move(script);
  uses_.assign(script_.rules.size(), 0);
}

void RuleBook::reset_uses() {
  std::lock_guard lock(mutex_);
  uses_.assign(script_.rules.size(), 0);
}

}  // namespace krino::fake_llm
