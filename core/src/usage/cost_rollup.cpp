#include "krino/core/usage/cost_rollup.hpp"

namespace krino::core {

void CostRollup::add(std::optional<int64_t> tokens_in, std::optional<int64_t> tokens_out,
                     std::optional<double> cost_usd) {
  bool tokenized = tokens_in.has_value() || tokens_out.has_value();
  if (cost_usd) {
    total_usd += *cost_usd;
    ++costed_item_count;
  }
  if (tokenized) {
    ++tokenized_item_count;
    if (cost_usd) ++priced_item_count;
  }
}

void CostRollup::merge(const CostRollup& other) {
  total_usd += other.total_usd;
  costed_item_count += other.costed_item_count;
  priced_item_count += other.priced_item_count;
  tokenized_item_count += other.tokenized_item_count;
}

std::optional<double> CostRollup::total() const {
  if (costed_item_count == 0) return std::nullopt;
  return total_usd;
}

std::optional<std::string> CostRollup::coverage_text() const {
  if (priced_item_count >= tokenized_item_count) return std::nullopt;
  return std::to_string(priced_item_count) + "/" + std::to_string(tokenized_item_count) + " items priced";
}

}  // namespace krino::core
