#pragma once
// Measurements of one call to a model or a system under test (spec §9): what a task reports as an
// item's metrics, from a reply, a trace or a model call. Every field may be unknown.
#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>

namespace krino::core {

struct CallMetrics {
  std::optional<int64_t> tokens_in;
  std::optional<int64_t> tokens_out;
  std::optional<double> cost_usd;
  std::optional<double> latency_ms;

  boost::json::object to_json() const;
  static CallMetrics from_json(const boost::json::object& object);
};

}  // namespace krino::core
