#include <krino/support/retrieval_scoring.hpp>

namespace krino {

boost::json::array as_item_list(const boost::json::value& value) {
  if (value.is_array()) return value.get_array();
  boost::json::array one;
  one.push_back(value);
  return one;
}

RetrievalScore retrieval_score(bool precision, std::size_t matched, std::size_t retrieved, std::size_t relevant) {
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

boost::json::array unpaired_indexes(const std::vector<bool>& paired) {
  boost::json::array indexes;
  for (std::size_t i = 0; i < paired.size(); ++i)
    if (!paired[i]) indexes.push_back(i);
  return indexes;
}

}  // namespace krino
