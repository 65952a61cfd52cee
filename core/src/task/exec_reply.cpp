#include "krino/core/task/exec_reply.hpp"

#include "krino/core/usage/price_table.hpp"
#include "krino/core/process/printable_text.hpp"

#include <krino/json_text.hpp>
#include <krino/strict_json.hpp>

#include <cmath>

namespace krino::core {
namespace {

namespace json = boost::json;

constexpr std::size_t kExcerptBytes = 200;

struct EnvelopeProblem {
  std::string message;
};

const json::value* member(const json::object& object, std::string_view key) {
  auto it = object.find(key);
  return it == object.end() || it->value().is_null() ? nullptr : &it->value();
}

std::optional<std::int64_t> token_count(const json::object& object, std::string_view key, std::string_view where) {
  const json::value* value = member(object, key);
  if (value == nullptr) return std::nullopt;
  if (value->is_int64() && value->get_int64() >= 0) return value->get_int64();
  if (value->is_uint64() && value->get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
    return static_cast<std::int64_t>(value->get_uint64());
  if (value->is_double() && value->get_double() >= 0 && value->get_double() < 9.2e18 &&
      std::floor(value->get_double()) == value->get_double())
    return static_cast<std::int64_t>(value->get_double());
  throw EnvelopeProblem{std::string(where) + "." + std::string(key) + " must be a whole number of tokens (or null), got " +
                        ::krino::json::to_compact_json(*value)};
}

std::optional<std::string> model_name(const json::object& object, std::string_view where) {
  const json::value* value = member(object, "model");
  if (value == nullptr) return std::nullopt;
  if (!value->is_string())
    throw EnvelopeProblem{std::string(where) + "model must be a string, got " + ::krino::json::to_compact_json(*value)};
  return std::string(value->get_string());
}

const json::object* object_member(const json::object& object, std::string_view key) {
  const json::value* value = member(object, key);
  if (value == nullptr) return nullptr;
  if (!value->is_object())
    throw EnvelopeProblem{std::string(key) + " must be an object, got " + ::krino::json::to_compact_json(*value)};
  return &value->get_object();
}

// Tokens, cost and model from `metrics` (krino's names) and `usage` (OpenAI's or Anthropic's
// names); `metrics` wins where both say something.
CallMetrics read_metrics(const json::object& envelope, const ExecReplyRules& rules) {
  CallMetrics metrics;
  std::optional<std::string> model = model_name(envelope, "");
  if (const json::object* usage = object_member(envelope, "usage")) {
    metrics.tokens_in = token_count(*usage, "prompt_tokens", "usage");
    if (!metrics.tokens_in) metrics.tokens_in = token_count(*usage, "input_tokens", "usage");
    metrics.tokens_out = token_count(*usage, "completion_tokens", "usage");
    if (!metrics.tokens_out) metrics.tokens_out = token_count(*usage, "output_tokens", "usage");
  }
  if (const json::object* reported = object_member(envelope, "metrics")) {
    if (auto in = token_count(*reported, "tokensIn", "metrics")) metrics.tokens_in = in;
    if (auto out = token_count(*reported, "tokensOut", "metrics")) metrics.tokens_out = out;
    if (const json::value* cost = member(*reported, "costUsd")) {
      if (!cost->is_number() || !std::isfinite(cost->to_number<double>()) || cost->to_number<double>() < 0)
        throw EnvelopeProblem{"metrics.costUsd must be a number of US dollars, zero or more (or null), got " +
                              ::krino::json::to_compact_json(*cost)};
      metrics.cost_usd = cost->to_number<double>();
    }
    if (auto named = model_name(*reported, "metrics.")) model = named;
  }
  // A cost the program reports is kept as it is; otherwise it is priced once, here
  // (docs/tasks/exec.md#metrics-tokens-cost-latency).
  if (!metrics.cost_usd && rules.prices != nullptr) {
    const std::string_view priced_model = model ? std::string_view(*model) : rules.default_model;
    if (!priced_model.empty()) metrics.cost_usd = rules.prices->cost_usd(priced_model, metrics.tokens_in, metrics.tokens_out);
  }
  return metrics;
}

// An object is the outputs; any other value is the single output (docs/tasks/exec.md#the-reply).
std::string outputs_text(const json::value& outputs, bool raw) {
  if (outputs.is_object() || raw) return ::krino::json::to_compact_json(outputs);
  return ::krino::json::to_compact_json(json::object{{"output", outputs}});
}

ExecReply reply_of(ExecReply::Kind kind, std::string message) {
  ExecReply reply;
  reply.kind = kind;
  reply.message = std::move(message);
  return reply;
}

}  // namespace

ExecReply read_exec_reply(std::string_view text, const ExecReplyRules& rules) {
  const bool worker = rules.request_id.has_value();
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return reply_of(ExecReply::Kind::not_a_reply, worker ? "an empty line instead of a JSON reply" : "nothing on stdout");

  json::value document;
  try {
    document = ::krino::json::parse_strict_json(text);
  } catch (const std::exception& e) {
    return reply_of(ExecReply::Kind::not_a_reply, std::string("output that is not JSON (") + e.what() + "): '" +
                                                      printable_head(text, kExcerptBytes) + "'");
  }

  const json::object* envelope = document.is_object() ? &document.get_object() : nullptr;
  if (worker) {
    if (envelope == nullptr)
      return reply_of(ExecReply::Kind::not_a_reply, "a reply that is not a JSON object: '" + printable_head(text, kExcerptBytes) + "'");
    const json::value* id = member(*envelope, "id");
    const bool matches = id != nullptr && ((id->is_uint64() && id->get_uint64() == *rules.request_id) ||
                                           (id->is_int64() && id->get_int64() >= 0 &&
                                            static_cast<std::uint64_t>(id->get_int64()) == *rules.request_id));
    if (id == nullptr)
      return reply_of(ExecReply::Kind::not_a_reply, "a reply without the request's id: '" + printable_head(text, kExcerptBytes) + "'");
    if (!matches)
      return reply_of(ExecReply::Kind::not_a_reply, "the reply to request " + ::krino::json::to_compact_json(*id) +
                                                        " where request " + std::to_string(*rules.request_id) + " was due");
  } else if (envelope == nullptr || !envelope->contains("actualOutputs")) {
    ExecReply reply;
    reply.kind = ExecReply::Kind::outputs;
    reply.output.actual_outputs = outputs_text(document, rules.raw);
    reply.output.metrics = CallMetrics{};
    return reply;
  }

  try {
    if (const json::value* error = member(*envelope, "error")) {
      if (!error->is_string())
        throw EnvelopeProblem{"error must be a string (or null), got " + ::krino::json::to_compact_json(*error)};
      return reply_of(ExecReply::Kind::program_error, std::string(error->get_string()));
    }
    const json::value* outputs = member(*envelope, "actualOutputs");
    if (outputs == nullptr) throw EnvelopeProblem{"the reply has neither actualOutputs nor error"};
    ExecReply reply;
    reply.kind = ExecReply::Kind::outputs;
    reply.output.metrics = read_metrics(*envelope, rules);
    reply.output.actual_outputs = outputs_text(*outputs, rules.raw);
    return reply;
  } catch (const EnvelopeProblem& problem) {
    return reply_of(ExecReply::Kind::invalid_envelope, "a malformed reply envelope: " + problem.message);
  }
}

}  // namespace krino::core
