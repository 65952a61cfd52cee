// Maximum one-to-one matching between two lists. Header-only; uses Boost.Graph.
//
// Evaluators that pair actual items with expected items (retrieved documents with relevant ones,
// actual tool calls with expected ones) must not let one item count twice, and must not lose
// pairs to a greedy choice: with a->{x, y} and b->{x}, greedy may give a=x and leave b unpaired,
// while the maximum matching pairs both (a=y, b=x).
#ifndef KRINO_SUPPORT_BIPARTITE_MATCHING_HPP
#define KRINO_SUPPORT_BIPARTITE_MATCHING_HPP

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/max_cardinality_matching.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace krino {

// One pair of a matching: index into the left list, index into the right list.
struct MatchedPair {
  std::size_t left;
  std::size_t right;
};

// A largest set of pairs (left, right), each index used at most once, such that
// can_match(left, right) holds for every pair. Pairs come ordered by `left`. `can_match` is called
// once for every (left, right) combination.
template <class CanMatch>
std::vector<MatchedPair> maximum_bipartite_matching(std::size_t left_count, std::size_t right_count,
                                                    CanMatch&& can_match) {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
  Graph graph(left_count + right_count);
  bool any_edge = false;
  for (std::size_t l = 0; l < left_count; ++l) {
    for (std::size_t r = 0; r < right_count; ++r) {
      if (can_match(l, r)) {
        boost::add_edge(l, left_count + r, graph);
        any_edge = true;
      }
    }
  }
  std::vector<MatchedPair> pairs;
  if (!any_edge) return pairs;

  std::vector<Vertex> mate(left_count + right_count);
  boost::edmonds_maximum_cardinality_matching(graph, mate.data());
  for (std::size_t l = 0; l < left_count; ++l) {
    const Vertex partner = mate[l];
    if (partner != boost::graph_traits<Graph>::null_vertex()) pairs.push_back({l, partner - left_count});
  }
  return pairs;
}

}  // namespace krino

#endif  // KRINO_SUPPORT_BIPARTITE_MATCHING_HPP
