#pragma once
// What a call cost, from a price table the user supplies (krino ships none; docs/judges.md#cost).
#include <boost/json/object.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace krino::core {

struct ModelPrice {
  double input_per_million = 0;   // USD per million input tokens
  double output_per_million = 0;  // USD per million output tokens
};

class PriceTable {
 public:
  PriceTable() = default;
  explicit PriceTable(std::map<std::string, ModelPrice, std::less<>> prices) : prices_(std::move(prices)) {}

  // {"<model>": {"input_per_million": 0.05, "output_per_million": 0.40}, ...}. Throws a configuration
  // KrinoError naming the offending key, under `path` (where the table sits in the experiment file).
  static PriceTable from_json(const boost::json::object& table, std::string_view path = "prices");

  // (tokens_in * input + tokens_out * output) / 1e6, rounded to 6 decimals; nullopt for a model not
  // in the table (exact name) or a missing or negative token count. Never throws.
  std::optional<double> cost_usd(std::string_view model, std::optional<int64_t> tokens_in,
                                 std::optional<int64_t> tokens_out) const noexcept;

  const ModelPrice* find(std::string_view model) const noexcept;
  bool empty() const noexcept { return prices_.empty(); }

 private:
  std::map<std::string, ModelPrice, std::less<>> prices_;
};

}  // namespace krino::core
