#include "krino/core/usage/call_metrics.hpp"

namespace krino::core {
namespace {

template <class T>
void put(boost::json::object& o, const char* key, const std::optional<T>& v) {
  if (v) o[key] = *v; else o[key] = nullptr;
}

std::optional<int64_t> integer(const boost::json::object& o, const char* key) {
  auto it = o.find(key);
  if (it == o.end()) return std::nullopt;
  if (it->value().is_int64()) return it->value().get_int64();
  if (it->value().is_uint64()) return static_cast<int64_t>(it->value().get_uint64());
  if (it->value().is_double()) return static_cast<int64_t>(it->value().get_double());
  return std::nullopt;
}

std::optional<double> number(const boost::json::object& o, const char* key) {
  auto it = o.find(key);
  if (it == o.end() || !it->value().is_number()) return std::nullopt;
  return it->value().to_number<double>();
}

}  // namespace

boost::json::object CallMetrics::to_json() const {
  boost::json::object o;
  put(o, "tokensIn", tokens_in);
  put(o, "tokensOut", tokens_out);
  put(o, "costUsd", cost_usd);
  put(o, "latencyMs", latency_ms);
  return o;
}

CallMetrics CallMetrics::from_json(const boost::json::object& o) {
  CallMetrics m;
  m.tokens_in = integer(o, "tokensIn");
  m.tokens_out = integer(o, "tokensOut");
  m.cost_usd = number(o, "costUsd");
  m.latency_ms = number(o, "latencyMs");
  return m;
}

}  // namespace krino::core
