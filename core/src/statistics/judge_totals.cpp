#include "krino/core/statistics/judge_totals.hpp"

#include <boost/json.hpp>

#include <algorithm>

namespace krino::core {
namespace {

// A function rather than a lambda over the loop's structured binding: clang before 16 cannot
// capture one (the fuzz preset builds with clang 14).
void add_evaluator_usage(std::vector<std::pair<std::string, JudgeUsage>>& totals, const std::string& name,
                         const JudgeUsage& usage) {
  auto it = std::find_if(totals.begin(), totals.end(), [&](const auto& e) { return e.first == name; });
  if (it == totals.end()) totals.emplace_back(name, usage);
  else it->second.merge(usage);
}

}  // namespace

void JudgeTotals::add_item(const JudgeUsage& item, const std::vector<std::pair<std::string, JudgeUsage>>& by_evaluator) {
  if (item.empty()) return;
  total_.merge(item);
  if (item.tokenized()) ++tokenized_items_;
  if (item.priced()) ++priced_items_;
  for (const auto& [name, usage] : by_evaluator) add_evaluator_usage(by_evaluator_, name, usage);
}

void JudgeTotals::merge(const JudgeTotals& other) {
  total_.merge(other.total_);
  tokenized_items_ += other.tokenized_items_;
  priced_items_ += other.priced_items_;
  for (const auto& [name, usage] : other.by_evaluator_) add_evaluator_usage(by_evaluator_, name, usage);
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
