#include "call_pairing.h"

#include <algorithm>
#include <string>

namespace krino::agent {

std::vector<MatchedPair> ordered_pairing(std::size_t actual_count, std::size_t expected_count, const CallsMatch& can_match) {
  // suffix(a, e) = LCS length of actual[a..] and expected[e..]; walking forward from (0, 0) then
  // takes a match as early as possible. Both tables are flat, one allocation each: this runs for
  // every case, on small lists, where a vector per row cost more than the comparisons.
  const std::size_t width = expected_count + 1;
  std::vector<std::size_t> suffix_table((actual_count + 1) * width, 0);
  std::vector<char> matches(actual_count * expected_count, 0);
  const auto suffix = [&](std::size_t a, std::size_t e) -> std::size_t& { return suffix_table[a * width + e]; };
  const auto match = [&](std::size_t a, std::size_t e) { return matches[a * expected_count + e] != 0; };
  for (std::size_t a = 0; a < actual_count; ++a)
    for (std::size_t e = 0; e < expected_count; ++e) matches[a * expected_count + e] = can_match(a, e) ? 1 : 0;
  for (std::size_t a = actual_count; a-- > 0;)
    for (std::size_t e = expected_count; e-- > 0;)
      suffix(a, e) = match(a, e) ? suffix(a + 1, e + 1) + 1 : std::max(suffix(a + 1, e), suffix(a, e + 1));

  std::vector<MatchedPair> pairs;
  pairs.reserve(std::min(actual_count, expected_count));
  std::size_t a = 0;
  std::size_t e = 0;
  while (a < actual_count && e < expected_count) {
    if (match(a, e) && suffix(a, e) == suffix(a + 1, e + 1) + 1) {
      pairs.push_back({a++, e++});
    } else if (suffix(a + 1, e) >= suffix(a, e + 1)) {
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
void write_pairing_metadata_of(json::CompactWriter& metadata, const std::vector<Call>& actual,
                               const std::vector<Call>& expected, const std::vector<MatchedPair>& pairs) {
  std::vector<bool> actual_paired(actual.size(), false);
  std::vector<bool> expected_paired(expected.size(), false);
  for (const MatchedPair& pair : pairs) {
    actual_paired[pair.left] = true;
    expected_paired[pair.right] = true;
  }
  const auto names = [&](const std::vector<Call>& calls) {
    metadata.begin_array();
    for (const Call& call : calls) metadata.string(call.name);
    metadata.end_array();
  };
  const auto unmatched = [&](const std::vector<Call>& calls, const std::vector<bool>& paired) {
    metadata.begin_array();
    for (std::size_t i = 0; i < calls.size(); ++i)
      if (!paired[i]) metadata.begin_object().key("index").count(i).key("tool").string(calls[i].name).end_object();
    metadata.end_array();
  };
  metadata.key("actualCount").count(actual.size());
  metadata.key("expectedCount").count(expected.size());
  metadata.key("matchedCount").count(pairs.size());
  metadata.key("actualTools");
  names(actual);
  metadata.key("expectedTools");
  names(expected);
  metadata.key("matchedPairs").begin_array();
  for (const MatchedPair& pair : pairs)
    metadata.begin_object()
        .key("actual").count(pair.left)
        .key("expected").count(pair.right)
        .key("tool").string(expected[pair.right].name)
        .end_object();
  metadata.end_array();
  metadata.key("unmatchedActual");
  unmatched(actual, actual_paired);
  metadata.key("unmatchedExpected");
  unmatched(expected, expected_paired);
}

}  // namespace

void write_pairing_metadata(json::CompactWriter& metadata, const std::vector<ToolCall>& actual,
                            const std::vector<ToolCall>& expected, const std::vector<MatchedPair>& pairs) {
  write_pairing_metadata_of(metadata, actual, expected, pairs);
}

void write_pairing_metadata(json::CompactWriter& metadata, const std::vector<ToolCallView>& actual,
                            const std::vector<ToolCallView>& expected, const std::vector<MatchedPair>& pairs) {
  write_pairing_metadata_of(metadata, actual, expected, pairs);
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
