#include "krino/core/judge/price_table.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/statistics/run_statistics.hpp"

#include <cmath>

namespace krino::core {
namespace {

namespace json = boost::json;

double price(const json::object& entry, std::string_view key, const std::string& where) {
  auto it = entry.find(key);
  std::string at = where + "." + std::string(key);
  if (it == entry.end()) throw config_error(where + ": '" + std::string(key) + "' is required");
  if (!it->value().is_number()) throw config_error(at + ": expected a number (USD per million tokens)");
  double value = it->value().to_number<double>();
  if (!std::isfinite(value) || value < 0) throw config_error(at + ": must be zero or more");
  return value;
}

}  // namespace

PriceTable PriceTable::from_json(const json::object& table, std::string_view path) {
  std::map<std::string, ModelPrice, std::less<>> prices;
  for (const auto& [model, entry] : table) {
    std::string where = std::string(path) + "." + std::string(model);
    if (!entry.is_object()) {
      throw config_error(where + ": expected a mapping with input_per_million and output_per_million");
    }
    const json::object& o = entry.get_object();
    for (const auto& kv : o) {
      if (kv.key() != "input_per_million" && kv.key() != "output_per_million") {
        throw config_error(where + "." + std::string(kv.key()) +
                           ": unknown key (expected input_per_million and output_per_million)");
      }
    }
    prices.emplace(std::string(model), ModelPrice{price(o, "input_per_million", where), price(o, "output_per_million", where)});
  }
  return PriceTable(std::move(prices));
}

const ModelPrice* PriceTable::find(std::string_view model) const noexcept {
  auto it = prices_.find(model);
  return it == prices_.end() ? nullptr : &it->second;
}

std::optional<double> PriceTable::cost_usd(std::string_view model, std::optional<int64_t> tokens_in,
                                           std::optional<int64_t> tokens_out) const noexcept {
  const ModelPrice* p = find(model);
  if (!p || !tokens_in || !tokens_out || *tokens_in < 0 || *tokens_out < 0) return std::nullopt;
  double usd = (static_cast<double>(*tokens_in) * p->input_per_million +
                static_cast<double>(*tokens_out) * p->output_per_million) /
               1e6;
  return round6(usd);
}

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
