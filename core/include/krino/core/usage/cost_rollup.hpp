#pragma once
// How costs add up over items, and how many of them had a price.
#include <cstdint>
#include <optional>
#include <string>

namespace krino::core {

// Costs over items (of an evaluator, or a run). "Tokenized" items reported a token count (in or
// out); "priced" items are tokenized items that also have a cost, so priced <= tokenized always.
struct CostRollup {
  double total_usd = 0;             // every known cost, nulls skipped
  uint64_t costed_item_count = 0;   // items that contributed to total_usd
  uint64_t priced_item_count = 0;
  uint64_t tokenized_item_count = 0;

  void add(std::optional<int64_t> tokens_in, std::optional<int64_t> tokens_out, std::optional<double> cost_usd);
  void merge(const CostRollup& other);

  // nullopt when no item had a cost: "no total", not "free".
  std::optional<double> total() const;
  // "N/M items priced", only when some tokenized items have no cost.
  std::optional<std::string> coverage_text() const;
};

}  // namespace krino::core
