// Pairing actual tool calls with expected ones, and the metadata that shows the pairing.
#ifndef KRINO_AGENT_CALL_PAIRING_H
#define KRINO_AGENT_CALL_PAIRING_H

#include <krino/agent/tool_call.hpp>
#include <krino/json_text.hpp>
#include <krino/support/bipartite_matching.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <functional>
#include <vector>

namespace krino::agent {

// can_match(actual index, expected index).
using CallsMatch = std::function<bool(std::size_t, std::size_t)>;

// Pairs in order (a longest common subsequence), left = actual index, right = expected index,
// ordered by both. Ties prefer the earliest actual calls.
std::vector<MatchedPair> ordered_pairing(std::size_t actual_count, std::size_t expected_count, const CallsMatch& can_match);

// A largest one-to-one pairing ignoring order (maximum bipartite matching), ordered by actual index.
std::vector<MatchedPair> unordered_pairing(std::size_t actual_count, std::size_t expected_count,
                                           const CallsMatch& can_match);

// Writes the members actualCount, expectedCount, matchedCount, actualTools, expectedTools,
// matchedPairs ([{actual, expected, tool}]), unmatchedActual and unmatchedExpected ([{index, tool}])
// into the object `metadata` has open.
void write_pairing_metadata(json::CompactWriter& metadata, const std::vector<ToolCall>& actual,
                            const std::vector<ToolCall>& expected, const std::vector<MatchedPair>& pairs);
void write_pairing_metadata(json::CompactWriter& metadata, const std::vector<ToolCallView>& actual,
                            const std::vector<ToolCallView>& expected, const std::vector<MatchedPair>& pairs);

// "a, b, c" for reasons.
std::string join_names(const std::vector<std::string>& names);

}  // namespace krino::agent

#endif  // KRINO_AGENT_CALL_PAIRING_H
