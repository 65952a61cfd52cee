// How precision and recall decide that a retrieved item is one of the relevant (expected) items.
#ifndef KRINO_TEXT_MATCHING_STRATEGY_H
#define KRINO_TEXT_MATCHING_STRATEGY_H

#include <krino/plugin.hpp>

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <vector>

namespace krino::text {

// matrix[r][e]: whether retrieved item r matches expected item e.
using MatchMatrix = std::vector<std::vector<bool>>;

// The deterministic strategies live in matching_strategy_factory.cpp. A strategy that asks the
// host's judge implements the same interface: it receives the call context for host->judge and
// may override match_matrix() to settle many pairs with one request. Implementations must be
// safe to call from several threads at once.
class MatchingStrategy {
 public:
  virtual ~MatchingStrategy() = default;

  virtual bool matches(const boost::json::value& retrieved, const boost::json::value& expected,
                       CallContext& ctx) const = 0;

  // Every pair, asked one by one through matches().
  virtual MatchMatrix match_matrix(const boost::json::array& retrieved, const boost::json::array& expected,
                                   CallContext& ctx) const {
    MatchMatrix matrix(retrieved.size(), std::vector<bool>(expected.size(), false));
    for (std::size_t r = 0; r < retrieved.size(); ++r)
      for (std::size_t e = 0; e < expected.size(); ++e) matrix[r][e] = matches(retrieved[r], expected[e], ctx);
    return matrix;
  }

  // For reasons and metadata: "equality", "field(id)", "any_of(equality, containment)".
  virtual std::string describe() const = 0;
};

}  // namespace krino::text

#endif  // KRINO_TEXT_MATCHING_STRATEGY_H
