#include "failure_log.hpp"

#include <boost/test/unit_test.hpp>

using krino::console::FailureLog;

BOOST_AUTO_TEST_SUITE(console_failure_log)

BOOST_AUTO_TEST_CASE(keeps_the_first_entries_and_counts_the_rest) {
  FailureLog log(3);
  for (int i = 0; i < 8; ++i) log.add("item " + std::to_string(i));
  BOOST_TEST(log.total() == 8u);
  BOOST_TEST(log.omitted() == 5u);
  BOOST_REQUIRE(log.kept().size() == 3u);
  BOOST_TEST(log.kept()[0] == "item 0");
  BOOST_TEST(log.kept()[2] == "item 2");
}

BOOST_AUTO_TEST_CASE(memory_stays_bounded_over_a_million_failures) {
  FailureLog log(20);
  for (int i = 0; i < 1'000'000; ++i) log.add("FAIL line");
  BOOST_TEST(log.kept().size() == 20u);
  BOOST_TEST(log.kept().capacity() <= 32u);
  BOOST_TEST(log.omitted() == 999'980u);
}

BOOST_AUTO_TEST_CASE(a_zero_capacity_log_only_counts) {
  FailureLog log(0);
  log.add("x");
  BOOST_TEST(log.kept().empty());
  BOOST_TEST(log.total() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
