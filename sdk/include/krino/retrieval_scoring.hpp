// Precision and recall over matched item pairs, as every retrieval evaluator scores them (the text
// plugin's deterministic ones and the judge plugin's LLM-matched ones): the same operands, the same
// empty-list rules, the same reasons. Header-only, C++17.
#ifndef KRINO_RETRIEVAL_SCORING_HPP
#define KRINO_RETRIEVAL_SCORING_HPP

#include <boost/json.hpp>

#include <cstddef>
#include <string>

namespace krino {

// A list operand; a single value counts as a one-item list.
inline boost::json::array as_item_list(const boost::json::value& value) {
  if (value.is_array()) return value.get_array();
  boost::json::array one;
  one.push_back(value);
  return one;
}

struct RetrievalScore {
  double score = 0.0;
  std::string reason;
  bool from_pairs = false;  // false: an empty-list rule decided; nothing was matched to explain
};

// precision = matched / retrieved, recall = matched / relevant. With nothing to divide by, the
// score is 1.0 when both lists are empty and 0.0 otherwise.
inline RetrievalScore retrieval_score(bool precision, std::size_t matched, std::size_t retrieved,
                                      std::size_t relevant) {
  auto items = [](std::size_t count) { return std::to_string(count) + (count == 1 ? " item" : " items"); };
  const std::size_t denominator = precision ? retrieved : relevant;
  const std::size_t other = precision ? relevant : retrieved;
  RetrievalScore s;
  if (denominator == 0) {
    s.score = other == 0 ? 1.0 : 0.0;
    s.reason = other == 0 ? "nothing was retrieved and nothing is relevant"
               : precision ? "nothing was retrieved, but " + items(other) + (other == 1 ? " is" : " are") + " relevant"
                           : "nothing is relevant, but " + items(other) + (other == 1 ? " was" : " were") + " retrieved";
    return s;
  }
  s.score = static_cast<double>(matched) / static_cast<double>(denominator);
  const std::string counted = std::to_string(matched) + " of " + std::to_string(denominator);
  const std::string noun = denominator == 1 ? " item " : " items ";
  s.reason = precision ? counted + " retrieved" + noun + (matched == 1 ? "is" : "are") + " relevant"
                       : counted + " relevant" + noun + (matched == 1 ? "was" : "were") + " retrieved";
  s.from_pairs = true;
  return s;
}

}  // namespace krino

#endif  // KRINO_RETRIEVAL_SCORING_HPP
