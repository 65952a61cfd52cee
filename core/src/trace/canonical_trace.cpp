#include "krino/core/trace/canonical_trace.hpp"

#include <krino/json_parse.hpp>
#include <boost/json.hpp>
#include <krino/json_text.hpp>

#include <cmath>
#include <stdexcept>

namespace krino::core {
namespace json = boost::json;

namespace {

std::optional<int64_t> token_count(const json::object& object, std::string_view key) {
  const json::value* v = object.if_contains(key);
  if (v == nullptr) return std::nullopt;
  if (v->is_int64() && v->get_int64() >= 0) return v->get_int64();
  if (v->is_uint64() && v->get_uint64() <= static_cast<uint64_t>(INT64_MAX)) return static_cast<int64_t>(v->get_uint64());
  return std::nullopt;
}

std::optional<double> number(const json::object& object, std::string_view key) {
  const json::value* v = object.if_contains(key);
  if (v == nullptr || !v->is_number()) return std::nullopt;
  const double d = v->to_number<double>();
  return d >= 0 ? std::optional<double>(d) : std::nullopt;
}

std::string text_member(const json::object& object, std::string_view key) {
  const json::value* v = object.if_contains(key);
  return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

// The price of one model call: its own cost, else its tokens by the reply's model, else by the
// requested model.
std::optional<double> call_cost(const json::object& call, const PriceTable& prices) {
  if (auto own = number(call, "costUsd")) return own;
  const auto in = token_count(call, "tokensIn");
  const auto out = token_count(call, "tokensOut");
  for (const char* key : {"model", "requestModel"}) {
    const std::string model = text_member(call, key);
    if (model.empty()) continue;
    if (auto cost = prices.cost_usd(model, in, out)) return cost;
  }
  return std::nullopt;
}

void check_calls(const json::value& calls, const std::string& where) {
  if (!calls.is_array()) throw std::invalid_argument(where + " is not a list");
  std::size_t i = 0;
  for (const json::value& call : calls.get_array()) {
    const std::string at = where + "[" + std::to_string(i++) + "]";
    if (!call.is_object()) throw std::invalid_argument(at + " is not an object");
    const json::value* name = call.get_object().if_contains("name");
    if (name == nullptr || !name->is_string() || name->get_string().empty())
      throw std::invalid_argument(at + " has no name");
    const json::value* arguments = call.get_object().if_contains("arguments");
    if (arguments != nullptr && !arguments->is_object()) throw std::invalid_argument(at + ".arguments is not an object");
  }
}

}  // namespace

CanonicalTrace::CanonicalTrace(std::string_view text) {
  json::error_code ec;
  json::value parsed = krino::json::parse(text, ec);
  if (ec) throw std::invalid_argument("the trace is not valid JSON: " + ec.message());
  if (!parsed.is_object()) throw std::invalid_argument("the trace is not a JSON object");
  document_ = std::move(parsed.get_object());
  const json::value* calls = document_.if_contains("toolCalls");
  if (calls == nullptr) throw std::invalid_argument("the trace has no toolCalls list");
  check_calls(*calls, "toolCalls");
  if (const json::value* turns = document_.if_contains("turns"); turns != nullptr && !turns->is_array())
    throw std::invalid_argument("turns is not a list");
  if (const json::value* steps = document_.if_contains("reasoningSteps"); steps != nullptr && !steps->is_array())
    throw std::invalid_argument("reasoningSteps is not a list");
}

std::string CanonicalTrace::actual_outputs(std::string_view recorded) const {
  json::object outputs;
  if (!recorded.empty()) {
    json::error_code ec;
    json::value parsed = krino::json::parse(recorded, ec);
    if (!ec && parsed.is_object()) outputs = std::move(parsed.get_object());
  }
  const json::value* output = document_.if_contains("output");
  outputs["output"] = output != nullptr ? *output : json::value(nullptr);
  outputs["toolCalls"] = document_.at("toolCalls");
  const json::value* steps = document_.if_contains("reasoningSteps");
  outputs["reasoningSteps"] = steps != nullptr ? *steps : json::array();
  const json::value* turns = document_.if_contains("turns");
  outputs["turns"] = turns != nullptr ? *turns : json::array();
  return ::krino::json::to_compact_json(outputs);
}

CallMetrics CanonicalTrace::metrics(const PriceTable& prices) const {
  CallMetrics metrics;
  static const json::object empty;
  const json::value* m = document_.if_contains("metrics");
  const json::object& reported = m != nullptr && m->is_object() ? m->get_object() : empty;
  metrics.tokens_in = token_count(reported, "tokensIn");
  metrics.tokens_out = token_count(reported, "tokensOut");
  metrics.latency_ms = number(reported, "latencyMs");
  metrics.cost_usd = number(reported, "costUsd");
  if (metrics.cost_usd) return metrics;

  const json::value* calls = document_.if_contains("modelCalls");
  if (calls != nullptr && calls->is_array() && !calls->get_array().empty()) {
    double total = 0;
    for (const json::value& call : calls->get_array()) {
      const std::optional<double> cost = call.is_object() ? call_cost(call.get_object(), prices) : std::nullopt;
      if (!cost) return metrics;
      total += *cost;
    }
    metrics.cost_usd = std::round(total * 1e6) / 1e6;
    return metrics;
  }
  const std::string model = text_member(document_, "model");
  if (!model.empty()) metrics.cost_usd = prices.cost_usd(model, metrics.tokens_in, metrics.tokens_out);
  return metrics;
}

}  // namespace krino::core
