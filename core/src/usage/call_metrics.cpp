#include "krino/core/usage/call_metrics.hpp"

namespace krino::core {
namespace {

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

CallMetrics call_metrics_from_json(const boost::json::object& o) {
  CallMetrics m;
  m.tokens_in = integer(o, "tokensIn");
  m.tokens_out = integer(o, "tokensOut");
  m.cost_usd = number(o, "costUsd");
  m.latency_ms = number(o, "latencyMs");
  return m;
}

}  // namespace krino::core
