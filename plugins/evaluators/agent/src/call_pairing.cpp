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

// The objects are built member by member into reserved space: an initializer list of value_refs
// (`{{"actual", a}, ...}`) costs about 1,400 instructions an object, five times as much, and this
// runs for every pair of every case.
boost::json::object pair_entry(std::string_view first_key, std::size_t first, std::string_view second_key,
                               std::size_t second, std::string_view tool, const boost::json::storage_ptr& storage) {
  boost::json::object entry(storage);
  entry.reserve(3);
  entry.emplace(first_key, first);
  if (!second_key.empty()) entry.emplace(second_key, second);
  entry.emplace("tool", tool);
  return entry;
}

template <typename Call>
void add_pairing_metadata_of(boost::json::object& metadata, const std::vector<Call>& actual,
                             const std::vector<Call>& expected, const std::vector<MatchedPair>& pairs) {
  const boost::json::storage_ptr& storage = metadata.storage();
  std::vector<bool> actual_paired(actual.size(), false);
  std::vector<bool> expected_paired(expected.size(), false);
  boost::json::array matched(storage);
  matched.reserve(pairs.size());
  for (const MatchedPair& pair : pairs) {
    actual_paired[pair.left] = true;
    expected_paired[pair.right] = true;
    matched.emplace_back(pair_entry("actual", pair.left, "expected", pair.right, expected[pair.right].name, storage));
  }
  const auto unmatched = [&](const std::vector<Call>& calls, const std::vector<bool>& paired) {
    boost::json::array out(storage);
    out.reserve(calls.size() - pairs.size());
    for (std::size_t i = 0; i < calls.size(); ++i)
      if (!paired[i]) out.emplace_back(pair_entry("index", i, {}, 0, calls[i].name, storage));
    return out;
  };
  const auto names = [&](const std::vector<Call>& calls) {
    boost::json::array out(storage);
    out.reserve(calls.size());
    for (const Call& call : calls) out.emplace_back(boost::json::string_view(call.name.data(), call.name.size()));
    return out;
  };
  metadata.reserve(metadata.size() + 8);
  metadata.insert_or_assign("actualCount", actual.size());
  metadata.insert_or_assign("expectedCount", expected.size());
  metadata.insert_or_assign("matchedCount", pairs.size());
  metadata.insert_or_assign("actualTools", names(actual));
  metadata.insert_or_assign("expectedTools", names(expected));
  metadata.insert_or_assign("matchedPairs", std::move(matched));
  metadata.insert_or_assign("unmatchedActual", unmatched(actual, actual_paired));
  metadata.insert_or_assign("unmatchedExpected", unmatched(expected, expected_paired));
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
