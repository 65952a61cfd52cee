#include "krino/core/statistics/judge_totals.hpp"

#include <boost/json.hpp>

#include <algorithm>

namespace krino::core {

void JudgeTotals::add_item(const JudgeUsage& item, const std::vector<std::pair<std::string, JudgeUsage>>& by_evaluator) {
  if (item.empty()) return;
  total_.merge(item);
  if (item.tokenized()) ++tokenized_items_;
  if (item.priced()) ++priced_items_;
  for (const auto& [name, usage] : by_evaluator) {
    auto it = std::find_if(by_evaluator_.begin(), by_evaluator_.end(), [&](const auto& e) { return e.first == name; });
    if (it == by_evaluator_.end()) by_evaluator_.emplace_back(name, usage);
    else it->second.merge(usage);
  }
}

void JudgeTotals::merge(const JudgeTotals& other) {
  total_.merge(other.total_);
  tokenized_items_ += other.tokenized_items_;
  priced_items_ += other.priced_items_;
  for (const auto& [name, usage] : other.by_evaluator_) {
    auto it = std::find_if(by_evaluator_.begin(), by_evaluator_.end(), [&](const auto& e) { return e.first == name; });
    if (it == by_evaluator_.end()) by_evaluator_.emplace_back(name, usage);
    else it->second.merge(usage);
  }
}

boost::json::object JudgeTotals::to_json() const {
  boost::json::object o = krino::event::judge_usage_json(total_, krino::event::JudgeUsageForm::summary);
  o["tokenizedItems"] = tokenized_items_;
  o["pricedItems"] = priced_items_;
  // Shown only when some tokenized items have no price, as a caveat on the cost.
  if (priced_items_ < tokenized_items_)
    o["costCoverage"] = std::to_string(priced_items_) + "/" + std::to_string(tokenized_items_) + " items priced";
  else
    o["costCoverage"] = nullptr;
  boost::json::object per;
  for (const auto& [name, usage] : by_evaluator_) per[name] = krino::event::judge_usage_json(usage, krino::event::JudgeUsageForm::summary);
  o["byEvaluator"] = std::move(per);
  return o;
}

}  // namespace krino::core
