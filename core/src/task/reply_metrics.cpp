#include "krino/core/task/reply_metrics.hpp"

#include <boost/json.hpp>

namespace krino::core {
namespace json = boost::json;

namespace {

std::optional<std::int64_t> usage_count(const json::object& object, std::string_view key) {
  const json::value* v = object.if_contains(key);
  if (v == nullptr) return std::nullopt;
  if (v->is_int64() && v->get_int64() >= 0) return v->get_int64();
  if (v->is_uint64() && v->get_uint64() <= static_cast<std::uint64_t>(INT64_MAX)) return static_cast<std::int64_t>(v->get_uint64());
  if (v->is_double() && v->get_double() >= 0 && v->get_double() < 9e15) return static_cast<std::int64_t>(v->get_double());
  return std::nullopt;
}

}  // namespace

CallMetrics metrics_from_reply(const json::value& reply, double latency_ms, const PriceTable& prices) {
  CallMetrics metrics;
  metrics.latency_ms = latency_ms;
  if (!reply.is_object()) return metrics;
  const json::object& object = reply.get_object();
  std::string model;
  if (const json::value* m = object.if_contains("model"); m != nullptr && m->is_string()) model = m->get_string();

  if (const json::value* usage = object.if_contains("usage"); usage != nullptr && usage->is_object()) {
    const json::object& u = usage->get_object();
    metrics.tokens_in = usage_count(u, "prompt_tokens");
    metrics.tokens_out = usage_count(u, "completion_tokens");
    if (!metrics.tokens_in) metrics.tokens_in = usage_count(u, "input_tokens");
    if (!metrics.tokens_out) metrics.tokens_out = usage_count(u, "output_tokens");
  }
  if (const json::value* own = object.if_contains("metrics"); own != nullptr && own->is_object()) {
    const json::object& m = own->get_object();
    if (auto in = usage_count(m, "tokensIn")) metrics.tokens_in = in;
    if (auto out = usage_count(m, "tokensOut")) metrics.tokens_out = out;
    if (const json::value* cost = m.if_contains("costUsd"); cost != nullptr && cost->is_number() && cost->to_number<double>() >= 0)
      metrics.cost_usd = cost->to_number<double>();
    if (const json::value* mm = m.if_contains("model"); mm != nullptr && mm->is_string()) model = mm->get_string();
  }
  if (!metrics.cost_usd && !model.empty()) metrics.cost_usd = prices.cost_usd(model, metrics.tokens_in, metrics.tokens_out);
  return metrics;
}

}  // namespace krino::core
