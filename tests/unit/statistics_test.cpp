#include "krino/core/statistics/experiment_statistics.hpp"
#include "krino/core/statistics/intervals.hpp"
#include "krino/core/statistics/run_statistics.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

using namespace krino::core;
namespace json = boost::json;

namespace {
std::vector<ScoreRecord> results(double score, double threshold = 0.5) {
  return {ScoreRecord{"e", score, score >= threshold}};
}
const std::vector<ScoreRecord> kNoResults;

// Three runs of four items, the numbers worked out by hand (and checked with Python's statistics):
//   run 0: scores 1, .5, 0, 1    -> 3 pass, mean .625
//   run 1: scores 1, 1, 0, 0     -> 2 pass, mean .5
//   run 2: scores 1, .5, .5, and one item with an error -> 3 pass, mean 2/3, 1 error
ExperimentStatistics three_runs() {
  ExperimentStatistics stats({"e"});
  RunStatistics r0({"e"});
  for (double s : {1.0, 0.5, 0.0, 1.0}) r0.add_item(s >= 0.5, false, results(s));
  RunStatistics r1({"e"});
  for (double s : {1.0, 1.0, 0.0, 0.0}) r1.add_item(s >= 0.5, false, results(s));
  RunStatistics r2({"e"});
  for (double s : {1.0, 0.5, 0.5}) r2.add_item(true, false, results(s));
  r2.add_item(false, true, kNoResults);
  stats.add_run(r0);
  stats.add_run(r1);
  stats.add_run(r2);
  return stats;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(statistics)

BOOST_AUTO_TEST_CASE(round6_rounds_halves_up) {
  BOOST_TEST(round6(0.1234565) == 0.123457);
  BOOST_TEST(round6(2.0 / 3.0) == 0.666667);
  BOOST_TEST(round6(-0.0000005) == 0.0);
}

BOOST_AUTO_TEST_CASE(moments_match_the_textbook_formula_and_merge) {
  ScoreMoments a;
  ScoreMoments b;
  ScoreMoments all;
  const double values[] = {1, .5, 0, 1, 1, 1, 0, 0, 1, .5, .5};
  for (int i = 0; i < 11; ++i) {
    (i < 4 ? a : b).add(values[i]);
    all.add(values[i]);
  }
  a.merge(b);
  BOOST_TEST(a.count == 11u);
  BOOST_TEST(a.sample_std_dev() == 0.4369314487526515, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(all.sample_std_dev() == 0.4369314487526515, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(a_failed_item_counts_but_adds_no_score) {
  RunStatistics run({"e"});
  run.add_item(true, false, results(1.0));
  run.add_item(false, true, kNoResults);  // an item error: empty results
  BOOST_TEST(run.total() == 2u);
  BOOST_TEST(run.passed() == 1u);
  BOOST_TEST(run.errors() == 1u);
  BOOST_TEST(run.evaluators()[0].results == 1u);
  BOOST_TEST(run.evaluators()[0].average() == 1.0);
  // "all evaluators passed" over no results must not read as a pass
  RunStatistics odd({"e"});
  odd.add_item(true, true, kNoResults);
  BOOST_TEST(odd.passed() == 0u);
}

BOOST_AUTO_TEST_CASE(null_scores_are_counted_apart) {
  RunStatistics run({"e"});
  run.add_item(false, false, {ScoreRecord{"e", std::nullopt, false}});
  run.add_item(true, false, results(0.8));
  auto s = run.summary();
  const auto& e = s.at("evaluators").as_object().at("e").as_object();
  BOOST_TEST(e.at("count").as_uint64() == 2u);
  BOOST_TEST(e.at("nullScores").as_uint64() == 1u);
  BOOST_TEST(e.at("averageScore").as_double() == 0.8);
  BOOST_TEST(e.at("passRate").as_double() == 0.5);
}

BOOST_AUTO_TEST_CASE(three_runs_match_hand_computed_values) {
  ExperimentStatistics stats = three_runs();
  json::object s = stats.summary();
  BOOST_TEST(s.at("runCount").as_uint64() == 3u);
  BOOST_TEST(s.at("totalCount").as_uint64() == 4u);  // per run, not 12
  BOOST_TEST(s.at("passCount").as_double() == 2.666667);
  BOOST_TEST(s.at("failCount").as_double() == 1.333333);
  BOOST_TEST(s.at("passRate").as_double() == 0.666667);
  BOOST_TEST(s.at("errorCount").as_double() == 0.333333);
  const auto& e = s.at("evaluators").as_object().at("e").as_object();
  BOOST_TEST(e.at("averageScore").as_double() == 0.597222);  // mean of per-run means
  BOOST_TEST(e.at("stdDev").as_double() == 0.086736);        // sample std dev of per-run means
  BOOST_TEST(e.at("passRate").as_double() == 0.75);          // (3/4 + 2/4 + 3/3) / 3
  BOOST_TEST(e.at("itemStdDev").as_double() == 0.436931);
}

BOOST_AUTO_TEST_CASE(one_run_has_zero_run_to_run_spread) {
  ExperimentStatistics stats({"e"});
  RunStatistics r({"e"});
  r.add_item(true, false, results(1.0));
  r.add_item(false, false, results(0.0));
  stats.add_run(r);
  BOOST_TEST(stats.score_std_dev("e") == 0.0);
  BOOST_TEST(stats.average_score("e") == 0.5);
  BOOST_TEST(stats.average_score("unknown") == 0.0);
}

// Wilson's interval against its closed form computed apart (3 of 10: 0.1077913 to 0.6032219, in
// Python); it never leaves [0, 1].
BOOST_AUTO_TEST_CASE(wilson_and_mean_intervals) {
  const auto three_of_ten = wilson_interval(3, 10);
  BOOST_TEST(three_of_ten[0] == 0.1077913, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(three_of_ten[1] == 0.6032219, boost::test_tools::tolerance(1e-6));
  const auto none = wilson_interval(0, 5);
  BOOST_TEST(none[0] == 0.0);
  BOOST_TEST(none[1] > 0.4);
  const auto all = wilson_interval(5, 5);
  BOOST_TEST(all[1] == 1.0);
  BOOST_TEST(all[0] < 0.6);
  // Scores 1, 2, 3: mean 2, sd 1, half-width 1.96 / sqrt(3).
  const auto mean = mean_interval(3, 6.0, 14.0);
  BOOST_TEST(mean[0] == 2.0 - kZ95 / std::sqrt(3.0), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(mean[1] == 2.0 + kZ95 / std::sqrt(3.0), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(mean_interval(1, 0.25, 0.0625)[0] == 0.25);
  BOOST_TEST(mean_interval(1, 0.25, 0.0625)[1] == 0.25);
}

BOOST_AUTO_TEST_SUITE_END()
