#include "krino/core/llm/rate_limiter.hpp"

#include <boost/test/unit_test.hpp>

#include <thread>
#include <vector>

using namespace krino::core;
using namespace std::chrono_literals;

namespace {
// A fake clock: tests move time by hand and never sleep.
const RateLimiter::Clock::time_point kStart{};
}  // namespace

BOOST_AUTO_TEST_SUITE(judge_rate_limiter)

BOOST_AUTO_TEST_CASE(unlimited_always_goes) {
  RateLimiter limiter({}, kStart);
  for (int i = 0; i < 1000; ++i) BOOST_TEST_REQUIRE(limiter.try_acquire(kStart, 1'000'000).go);
  BOOST_TEST(!limiter.available_requests(kStart));
}

BOOST_AUTO_TEST_CASE(requests_per_minute_allows_a_minute_then_spaces_calls) {
  RateLimiter limiter({60.0, std::nullopt}, kStart);
  for (int i = 0; i < 60; ++i) BOOST_TEST_REQUIRE(limiter.try_acquire(kStart, 0).go);
  auto refused = limiter.try_acquire(kStart, 0);
  BOOST_TEST(!refused.go);
  BOOST_TEST((refused.not_before == kStart + 1s));  // 60 per minute: one per second
  // A refusal takes nothing, so asking again at the promised time goes.
  BOOST_TEST(!limiter.try_acquire(kStart + 999ms, 0).go);
  BOOST_TEST(limiter.try_acquire(refused.not_before, 0).go);
  BOOST_TEST(!limiter.try_acquire(refused.not_before, 0).go);
}

BOOST_AUTO_TEST_CASE(bucket_refills_to_capacity_only) {
  RateLimiter limiter({60.0, std::nullopt}, kStart);
  BOOST_TEST(limiter.try_acquire(kStart, 0).go);
  BOOST_TEST(*limiter.available_requests(kStart + 1h) == 60.0);
}

BOOST_AUTO_TEST_CASE(tokens_per_minute_waits_for_the_estimate) {
  RateLimiter limiter({std::nullopt, 6000.0}, kStart);  // 100 tokens a second
  BOOST_TEST(limiter.try_acquire(kStart, 5000).go);
  auto refused = limiter.try_acquire(kStart, 1500);  // 1000 left, 500 short
  BOOST_TEST(!refused.go);
  BOOST_TEST((refused.not_before == kStart + 5s));
  BOOST_TEST(limiter.try_acquire(refused.not_before, 1500).go);
}

BOOST_AUTO_TEST_CASE(the_later_of_both_limits_decides) {
  RateLimiter limiter({60.0, 600.0}, kStart);  // 1 request/s, 10 tokens/s
  BOOST_TEST(limiter.try_acquire(kStart, 600).go);
  auto refused = limiter.try_acquire(kStart, 100);  // tokens need 10 s, requests are fine
  BOOST_TEST(!refused.go);
  BOOST_TEST((refused.not_before == kStart + 10s));
}

BOOST_AUTO_TEST_CASE(settling_gives_back_an_overestimate) {
  RateLimiter limiter({std::nullopt, 6000.0}, kStart);
  BOOST_TEST(limiter.try_acquire(kStart, 6000).go);
  BOOST_TEST(!limiter.try_acquire(kStart, 1000).go);
  limiter.settle(kStart, 6000, 2000);  // it used 2000: 4000 come back
  BOOST_TEST(*limiter.available_tokens(kStart) == 4000.0);
  BOOST_TEST(limiter.try_acquire(kStart, 1000).go);
}

BOOST_AUTO_TEST_CASE(settling_never_fills_beyond_a_full_bucket) {
  RateLimiter limiter({std::nullopt, 6000.0}, kStart);
  BOOST_TEST(limiter.try_acquire(kStart, 1000).go);
  limiter.settle(kStart + 10s, 1000, 0);  // refilled to full by then; the refund has nowhere to go
  BOOST_TEST(*limiter.available_tokens(kStart + 10s) == 6000.0);
}

BOOST_AUTO_TEST_CASE(settling_an_underestimate_is_debt) {
  RateLimiter limiter({std::nullopt, 6000.0}, kStart);
  BOOST_TEST(limiter.try_acquire(kStart, 1000).go);
  limiter.settle(kStart, 1000, 8000);  // 5000 - 7000 = -2000
  BOOST_TEST(*limiter.available_tokens(kStart) == -2000.0);
  auto refused = limiter.try_acquire(kStart, 100);
  BOOST_TEST((refused.not_before == kStart + 21s));  // 2100 tokens at 100/s
}

BOOST_AUTO_TEST_CASE(a_call_above_the_whole_budget_goes_when_the_bucket_is_full) {
  RateLimiter limiter({std::nullopt, 6000.0}, kStart);
  BOOST_TEST(limiter.try_acquire(kStart, 100).go);
  auto refused = limiter.try_acquire(kStart, 10'000);
  BOOST_TEST(!refused.go);
  BOOST_TEST((refused.not_before == kStart + 1s));  // full again after 100 tokens' refill
  BOOST_TEST(limiter.try_acquire(refused.not_before, 10'000).go);
  BOOST_TEST(*limiter.available_tokens(refused.not_before) == -4000.0);
}

BOOST_AUTO_TEST_CASE(an_older_now_from_another_thread_adds_nothing) {
  RateLimiter limiter({60.0, std::nullopt}, kStart);
  for (int i = 0; i < 60; ++i) limiter.try_acquire(kStart + 10s, 0);
  BOOST_TEST(*limiter.available_requests(kStart + 5s) < 1.0);
}

BOOST_AUTO_TEST_CASE(concurrent_callers_never_exceed_the_budget) {
  RateLimiter limiter({1000.0, std::nullopt}, kStart);
  std::atomic<int> granted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 500; ++i)
        if (limiter.try_acquire(kStart, 0).go) ++granted;
    });
  }
  for (auto& t : threads) t.join();
  BOOST_TEST(granted.load() == 1000);
}

BOOST_AUTO_TEST_SUITE_END()
