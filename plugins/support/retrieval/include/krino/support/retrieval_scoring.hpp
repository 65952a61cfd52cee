// Precision and recall over matched item pairs, as every retrieval evaluator scores them (the text
// plugin's deterministic ones and the judge plugin's LLM-matched ones): the same operands, the same
// empty-list rules, the same reasons.
#ifndef KRINO_SUPPORT_RETRIEVAL_SCORING_HPP
#define KRINO_SUPPORT_RETRIEVAL_SCORING_HPP

#include <boost/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace krino {

// A list operand; a single value counts as a one-item list.
boost::json::array as_item_list(const boost::json::value& value);

struct RetrievalScore {
  double score = 0.0;
  std::string reason;
  bool from_pairs = false;  // false: an empty-list rule decided; nothing was matched to explain
};

// precision = matched / retrieved, recall = matched / relevant. With nothing to divide by, the
// score is 1.0 when both lists are empty and 0.0 otherwise.
RetrievalScore retrieval_score(bool precision, std::size_t matched, std::size_t retrieved, std::size_t relevant);

// The indexes 0..paired.size()-1 whose flag is false, in order: the retrieved items left unmatched,
// or the relevant items missed (metadata unmatchedRetrieved and missedRelevant).
boost::json::array unpaired_indexes(const std::vector<bool>& paired);

}  // namespace krino

#endif  // KRINO_SUPPORT_RETRIEVAL_SCORING_HPP
