// The gate's statistics: McNemar, the sign-flip permutation test, the bootstrap interval, and the
// portable random stream they share.
#include "krino/core/gate/paired_tests.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <random>

using namespace krino::core;

// Exact values for seed 42 on the standard mt19937_64: a change here changes every verdict.
#define KRINO_PINNED_SIGN_FLIP_P (622.0 / 10001.0)
#define KRINO_PINNED_BOOTSTRAP_LOW (-0.135)
#define KRINO_PINNED_BOOTSTRAP_HIGH (-0.015)

BOOST_AUTO_TEST_SUITE(gate_paired_tests)

BOOST_AUTO_TEST_CASE(large_samples_use_normal_forms_that_agree_with_sampling) {
  // 2,000 deltas with a small shift: sampled at 20,000 iterations (4e7 draws), and in the large-sample
  // form at 200,000 iterations (4e8 draws, beyond the limit).
  std::mt19937_64 source(7);
  std::vector<double> deltas;
  for (int i = 0; i < 2000; ++i) deltas.push_back(static_cast<double>(static_cast<int>(source() % 21) - 10) / 10.0 + 0.02);
  BOOST_TEST(!uses_large_sample_form(deltas.size(), 20000));
  BOOST_TEST(uses_large_sample_form(deltas.size(), 200000));
  GateRng sampled_rng(42), normal_rng(42);
  const double sampled = sign_flip_p_value(deltas, 20000, sampled_rng);
  const double normal = sign_flip_p_value(deltas, 200000, normal_rng);
  BOOST_TEST(sampled > 0.01);
  BOOST_TEST(std::fabs(sampled - normal) < 0.01, "sampled p " << sampled << ", normal p " << normal);
  const Interval sampled_interval = bootstrap_mean_interval(deltas, 20000, sampled_rng);
  const Interval normal_interval = bootstrap_mean_interval(deltas, 200000, normal_rng);
  const double width = sampled_interval.high - sampled_interval.low;
  BOOST_TEST(std::fabs(sampled_interval.low - normal_interval.low) < 0.05 * width);
  BOOST_TEST(std::fabs(sampled_interval.high - normal_interval.high) < 0.05 * width);
  // The normal form draws nothing: the stream is where it was.
  GateRng untouched(42);
  BOOST_TEST(normal_rng.coin() == untouched.coin());
  // And never claims more than the sampled test could: p >= 1 / (iterations + 1).
  const std::vector<double> shifted(100000, 1.0);
  GateRng rng(1);
  BOOST_TEST(sign_flip_p_value(shifted, 10000, rng) == 1.0 / 10001.0);
}

BOOST_AUTO_TEST_CASE(mcnemar_matches_known_values) {
  BOOST_TEST(mcnemar_p_value(0, 0) == 1.0);
  BOOST_TEST(mcnemar_p_value(1, 0) == 1.0);  // |b - c| - 1 = 0: no evidence
  BOOST_TEST(mcnemar_p_value(2, 3) == 1.0);
  BOOST_TEST(std::fabs(mcnemar_p_value(10, 0) - 0.004426525857919833) < 1e-12);
  BOOST_TEST(std::fabs(mcnemar_p_value(0, 10) - 0.004426525857919833) < 1e-12);  // two-sided
  BOOST_TEST(std::fabs(mcnemar_p_value(6, 2) - 0.28884436634648486) < 1e-12);
  BOOST_TEST(std::fabs(mcnemar_p_value(5, 0) - 0.07363827012030266) < 1e-12);
  BOOST_TEST(std::fabs(mcnemar_p_value(6, 0) - 0.041226833337163676) < 1e-12);
}

BOOST_AUTO_TEST_CASE(minimum_pairs_are_where_a_total_flip_first_becomes_significant) {
  BOOST_TEST(mcnemar_minimum_pairs(0.05) == 6u);   // 5 flips: p = 0.074; 6: p = 0.041
  BOOST_TEST(mcnemar_minimum_pairs(0.01) == 9u);
  BOOST_TEST(sign_flip_minimum_pairs(0.05, 10000) == 6u);  // 2^(1-n) < 0.05
  BOOST_TEST(sign_flip_minimum_pairs(0.01, 10000) == 8u);
  BOOST_TEST(sign_flip_minimum_pairs(0.05, 10) == 0u);     // p never drops under 1/11
}

BOOST_AUTO_TEST_CASE(the_random_stream_is_the_standard_mt19937_64) {
  // The standard fixes the 10000th output of a default-seeded mt19937_64; GateRng derives from it.
  std::mt19937_64 reference;
  reference.discard(9999);
  BOOST_TEST(reference() == 9981545732273789042ull);
  GateRng a(7), b(7);
  std::mt19937_64 raw(7);
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = raw();
    BOOST_TEST(a.coin() == ((x >> 63) != 0));
  }
  for (int i = 0; i < 1000; ++i) BOOST_TEST(b.index(7) < 7u);
}

BOOST_AUTO_TEST_CASE(sign_flip_without_evidence_is_one_and_draws_nothing) {
  GateRng rng(42);
  BOOST_TEST(sign_flip_p_value({}, 100, rng) == 1.0);
  BOOST_TEST(sign_flip_p_value({0.5}, 100, rng) == 1.0);
  BOOST_TEST(sign_flip_p_value({0.0, 0.0, 0.0}, 100, rng) == 1.0);
  GateRng fresh(42);
  BOOST_TEST(rng.coin() == fresh.coin());  // nothing was consumed
}

BOOST_AUTO_TEST_CASE(sign_flip_p_values_are_pinned_for_a_seed) {
  const std::vector<double> deltas = {-0.1, -0.2, 0.05, -0.15, -0.1, 0.0, -0.05, -0.2, 0.1, -0.1};
  GateRng rng(42);
  const double p = sign_flip_p_value(deltas, 10000, rng);
  GateRng again(42);
  BOOST_TEST(sign_flip_p_value(deltas, 10000, again) == p);
  BOOST_TEST(p == KRINO_PINNED_SIGN_FLIP_P);
  // Every delta the same sign: only the identity and the total flip reach |mean|, p ~ 2^(1-n).
  GateRng rng2(1);
  const double extreme = sign_flip_p_value(std::vector<double>(10, -0.1), 10000, rng2);
  BOOST_TEST(extreme < 0.005);
  BOOST_TEST(extreme > 0.0001);
}

BOOST_AUTO_TEST_CASE(bootstrap_interval_is_pinned_and_brackets_the_mean) {
  GateRng rng(42);
  const Interval constant = bootstrap_mean_interval({0.2, 0.2, 0.2}, 1000, rng);
  BOOST_TEST(std::fabs(constant.low - 0.2) < 1e-12);
  BOOST_TEST(std::fabs(constant.high - 0.2) < 1e-12);
  const std::vector<double> deltas = {-0.1, -0.2, 0.05, -0.15, -0.1, 0.0, -0.05, -0.2, 0.1, -0.1};
  GateRng seeded(42);
  const Interval i = bootstrap_mean_interval(deltas, 10000, seeded);
  BOOST_TEST(i.low < mean(deltas));
  BOOST_TEST(i.high > mean(deltas));
  // Sums of doubles: pinned to 1e-12 rather than bit for bit.
  BOOST_TEST(std::fabs(i.low - KRINO_PINNED_BOOTSTRAP_LOW) < 1e-12);
  BOOST_TEST(std::fabs(i.high - KRINO_PINNED_BOOTSTRAP_HIGH) < 1e-12);
}

BOOST_AUTO_TEST_SUITE_END()
