// What one call of the system under test cost: the `metrics` member of an item_finished event,
// as a task measured it or a recorded trace said. Header-only.
#ifndef KRINO_EVENT_CALL_METRICS_HPP
#define KRINO_EVENT_CALL_METRICS_HPP

#include <krino/event/values.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace krino::event {

struct CallMetrics {
  std::optional<int64_t> tokens_in;
  std::optional<int64_t> tokens_out;
  std::optional<double> cost_usd;
  std::optional<double> latency_ms;
};

inline void append_call_metrics(std::string& out, const CallMetrics& m) {
  out += "{\"tokensIn\":";
  append_optional(out, m.tokens_in);
  append_key(out, "tokensOut");
  append_optional(out, m.tokens_out);
  append_key(out, "costUsd");
  append_optional(out, m.cost_usd);
  append_key(out, "latencyMs");
  append_optional(out, m.latency_ms);
  out += '}';
}

inline CallMetrics read_call_metrics(std::string_view object, std::string_view member = "metrics") {
  return within(member, [&] {
    CallMetrics m;
    krino::json::for_each_member(object, [&](std::string_view key, std::string_view value) {
      using krino::json::key_equals;
      if (key_equals(key, "tokensIn")) m.tokens_in = read_whole<int64_t>(value, "tokensIn");
      else if (key_equals(key, "tokensOut")) m.tokens_out = read_whole<int64_t>(value, "tokensOut");
      else if (key_equals(key, "costUsd")) m.cost_usd = read_number(value, "costUsd");
      else if (key_equals(key, "latencyMs")) m.latency_ms = read_number(value, "latencyMs");
      return true;
    });
    return m;
  });
}

}  // namespace krino::event

#endif  // KRINO_EVENT_CALL_METRICS_HPP
