// krino/support/bipartite_matching.hpp: one-to-one pairs, as many as possible.
#include <krino/support/bipartite_matching.hpp>

#include <boost/test/unit_test.hpp>

#include <vector>

using krino::maximum_bipartite_matching;

BOOST_AUTO_TEST_SUITE(bipartite_matching)

BOOST_AUTO_TEST_CASE(finds_the_pairing_a_greedy_choice_misses) {
  // left 0 may take right 0 or 1; left 1 only right 0. Greedy 0->0 strands left 1.
  const std::vector<std::vector<bool>> can = {{true, true}, {true, false}};
  const auto pairs = maximum_bipartite_matching(2, 2, [&](std::size_t l, std::size_t r) { return can[l][r]; });
  BOOST_TEST_REQUIRE(pairs.size() == 2u);
  BOOST_TEST(pairs[0].left == 0u);
  BOOST_TEST(pairs[0].right == 1u);
  BOOST_TEST(pairs[1].left == 1u);
  BOOST_TEST(pairs[1].right == 0u);
}

BOOST_AUTO_TEST_CASE(an_item_is_used_at_most_once) {
  // Three left items all match the single right item.
  const auto pairs = maximum_bipartite_matching(3, 1, [](std::size_t, std::size_t) { return true; });
  BOOST_TEST(pairs.size() == 1u);
}

BOOST_AUTO_TEST_CASE(empty_sides_and_no_edges_give_no_pairs) {
  BOOST_TEST(maximum_bipartite_matching(0, 3, [](std::size_t, std::size_t) { return true; }).empty());
  BOOST_TEST(maximum_bipartite_matching(3, 0, [](std::size_t, std::size_t) { return true; }).empty());
  BOOST_TEST(maximum_bipartite_matching(2, 2, [](std::size_t, std::size_t) { return false; }).empty());
}

BOOST_AUTO_TEST_CASE(the_predicate_is_asked_about_every_combination) {
  int calls = 0;
  maximum_bipartite_matching(3, 4, [&](std::size_t, std::size_t) {
    ++calls;
    return false;
  });
  BOOST_TEST(calls == 12);
}

BOOST_AUTO_TEST_SUITE_END()
