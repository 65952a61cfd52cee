#include "call_pairing.h"

#include <algorithm>
#include <string>

namespace krino::agent {

std::vector<MatchedPair> ordered_pairing(std::size_t actual_count, std::size_t expected_count, const CallsMatch& can_match) {
  // suffix[a][e] = LCS length of actual[a..] and expected[e..]; walking forward from (0, 0) then
  // takes a match as early as possible.
  std::vector<std::vector<std::size_t>> suffix(actual_count + 1, std::vector<std::size_t>(expected_count + 1, 0));
  std::vector<std::vector<char>> matches(actual_count, std::vector<char>(expected_count, 0));
  for (std::size_t a = 0; a < actual_count; ++a)
    for (std::size_t e = 0; e < expected_count; ++e) matches[a][e] = can_match(a, e) ? 1 : 0;
  for (std::size_t a = actual_count; a-- > 0;)
    for (std::size_t e = expected_count; e-- > 0;)
      suffix[a][e] = matches[a][e] ? suffix[a + 1][e + 1] + 1 : std::max(suffix[a + 1][e], suffix[a][e + 1]);

  std::vector<MatchedPair> pairs;
  std::size_t a = 0;
  std::size_t e = 0;
  while (a < actual_count && e < expected_count) {
    if (matches[a][e] && suffix[a][e] == suffix[a + 1][e + 1] + 1) {
      pairs.push_back({a++, e++});
    } else if (suffix[a + 1][e] >= suffix[a][e + 1]) {
      ++a;
    } else {
      ++e;
    }
  }
  return pairs;
}

std::vector<MatchedPair> unordered_pairing(std::size_t actual_count, std::size_t expected_count,
                                           const CallsMatch& can_match) {
  return maximum_bipartite_matching(actual_count, expected_count, can_match);
}

namespace {

template <typename Call>
void add_pairing_metadata_of(boost::json::object& metadata, const std::vector<Call>& actual,
                             const std::vector<Call>& expected, const std::vector<MatchedPair>& pairs) {
  std::vector<bool> actual_paired(actual.size(), false);
  std::vector<bool> expected_paired(expected.size(), false);
  boost::json::array matched;
  for (const MatchedPair& pair : pairs) {
    actual_paired[pair.left] = true;
    expected_paired[pair.right] = true;
    matched.push_back({{"actual", pair.left}, {"expected", pair.right}, {"tool", expected[pair.right].name}});
  }
  const auto unmatched = [](const std::vector<Call>& calls, const std::vector<bool>& paired) {
    boost::json::array out;
    for (std::size_t i = 0; i < calls.size(); ++i)
      if (!paired[i]) out.push_back({{"index", i}, {"tool", calls[i].name}});
    return out;
  };
  const auto names = [](const std::vector<Call>& calls) {
    boost::json::array out;
    for (const Call& call : calls) out.emplace_back(call.name);
    return out;
  };
  metadata["actualCount"] = actual.size();
  metadata["expectedCount"] = expected.size();
  metadata["matchedCount"] = pairs.size();
  metadata["actualTools"] = names(actual);
  metadata["expectedTools"] = names(expected);
  metadata["matchedPairs"] = std::move(matched);
  metadata["unmatchedActual"] = unmatched(actual, actual_paired);
  metadata["unmatchedExpected"] = unmatched(expected, expected_paired);
}

}  // namespace

void add_pairing_metadata(boost::json::object& metadata, const std::vector<ToolCall>& actual,
                          const std::vector<ToolCall>& expected, const std::vector<MatchedPair>& pairs) {
  add_pairing_metadata_of(metadata, actual, expected, pairs);
}

void add_pairing_metadata(boost::json::object& metadata, const std::vector<ToolCallView>& actual,
                          const std::vector<ToolCallView>& expected, const std::vector<MatchedPair>& pairs) {
  add_pairing_metadata_of(metadata, actual, expected, pairs);
}

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

}  // namespace krino::agent
