#include "krino/core/usage/price_table.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/round6.hpp"

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

}  // namespace krino::core
