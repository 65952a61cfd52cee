#pragma once
// Judge usage rolled up over items: per run and per experiment, in all and per evaluator, with
// the "N/M items priced" coverage (tokenized items are the denominator; docs/judges.md#cost).
#include "krino/core/usage/judge_usage.hpp"

#include <boost/json/object.hpp>

#include <string>
#include <utility>
#include <vector>

namespace krino::core {

class JudgeTotals {
 public:
  void add_item(const JudgeUsage& item, const std::vector<std::pair<std::string, JudgeUsage>>& by_evaluator);
  void merge(const JudgeTotals& other);
  bool empty() const { return total_.empty(); }
  const JudgeUsage& total() const { return total_; }
  // The "judge" member of a run or experiment summary.
  boost::json::object to_json() const;

 private:
  JudgeUsage total_;
  std::vector<std::pair<std::string, JudgeUsage>> by_evaluator_;  // in order of first appearance
  uint64_t tokenized_items_ = 0;
  uint64_t priced_items_ = 0;
};

}  // namespace krino::core
