#include "krino/core/net/retry_policy.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::core;
using namespace std::chrono_literals;
using std::chrono::milliseconds;

namespace {

// 2024-05-01T12:00:00Z
const std::chrono::system_clock::time_point kNow = std::chrono::sys_days{std::chrono::year{2024} / 5 / 1} + 12h;

RetryDecision decide(int attempt, AttemptFailure failure, std::optional<std::string_view> retry_after = std::nullopt,
                     RetryPolicy policy = {}, uint64_t seed = 7) {
  std::mt19937_64 rng(seed);
  return decide_retry(policy, attempt, failure, retry_after, kNow, rng);
}

milliseconds delay_of(const RetryDecision& d) {
  BOOST_REQUIRE(std::holds_alternative<RetryAfterDelay>(d));
  return std::get<RetryAfterDelay>(d).delay;
}

std::string reason_of(const RetryDecision& d) {
  BOOST_REQUIRE(std::holds_alternative<GiveUp>(d));
  return std::get<GiveUp>(d).reason;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(judge_retry_policy)

BOOST_AUTO_TEST_CASE(retries_rate_limits_server_errors_timeouts_and_connection_errors) {
  for (int status : {408, 429, 500, 502, 503, 504, 529}) BOOST_TEST(is_retryable(AttemptFailure::status(status)), status);
  BOOST_TEST(is_retryable(AttemptFailure::timed_out()));
  BOOST_TEST(is_retryable(AttemptFailure::connection_failed()));
}

BOOST_AUTO_TEST_CASE(does_not_retry_client_errors_or_permanent_server_errors) {
  for (int status : {400, 401, 403, 404, 422, 501, 505, 511, 200, 302})
    BOOST_TEST(!is_retryable(AttemptFailure::status(status)), status);
  auto reason = reason_of(decide(1, AttemptFailure::status(401)));
  BOOST_TEST(reason.find("HTTP 401") != std::string::npos, reason);
  BOOST_TEST(reason.find("not retried") != std::string::npos, reason);
}

BOOST_AUTO_TEST_CASE(gives_up_after_max_attempts) {
  RetryPolicy policy;
  policy.max_attempts = 3;
  BOOST_TEST(std::holds_alternative<RetryAfterDelay>(decide(2, AttemptFailure::status(503), std::nullopt, policy)));
  BOOST_TEST(reason_of(decide(3, AttemptFailure::status(503), std::nullopt, policy)) == "HTTP 503 after 3 attempts");
  policy.max_attempts = 1;
  BOOST_TEST(reason_of(decide(1, AttemptFailure::timed_out(), std::nullopt, policy)) == "timeout after 1 attempt");
}

BOOST_AUTO_TEST_CASE(backoff_is_full_jitter_under_a_doubling_ceiling) {
  RetryPolicy policy;
  policy.max_attempts = 100;
  policy.base_delay = 100ms;
  policy.max_delay = 1000ms;
  // Ceilings 100, 200, 400, 800, then capped at 1000.
  const int64_t ceilings[] = {100, 200, 400, 800, 1000, 1000, 1000};
  for (int attempt = 1; attempt <= 7; ++attempt) {
    int64_t seen_max = 0, seen_min = INT64_MAX;
    for (uint64_t seed = 0; seed < 400; ++seed) {
      auto d = delay_of(decide(attempt, AttemptFailure::status(429), std::nullopt, policy, seed)).count();
      BOOST_TEST_REQUIRE(d >= 0);
      BOOST_TEST_REQUIRE(d <= ceilings[attempt - 1]);
      seen_max = std::max(seen_max, d);
      seen_min = std::min(seen_min, d);
    }
    // Spread over the whole interval, not bunched at the ceiling.
    BOOST_TEST(seen_max > ceilings[attempt - 1] * 9 / 10, attempt);
    BOOST_TEST(seen_min < ceilings[attempt - 1] / 10, attempt);
  }
}

BOOST_AUTO_TEST_CASE(the_same_seed_gives_the_same_delay) {
  auto a = delay_of(decide(3, AttemptFailure::timed_out(), std::nullopt, {}, 42));
  auto b = delay_of(decide(3, AttemptFailure::timed_out(), std::nullopt, {}, 42));
  BOOST_TEST(a.count() == b.count());
  bool some_differ = false;
  for (uint64_t seed = 0; seed < 10; ++seed)
    some_differ |= delay_of(decide(3, AttemptFailure::timed_out(), std::nullopt, {}, seed)) != a;
  BOOST_TEST(some_differ);
}

BOOST_AUTO_TEST_CASE(retry_after_seconds_wins_over_backoff) {
  auto d = decide(1, AttemptFailure::status(429), "7");
  BOOST_TEST(delay_of(d).count() == 7000);
  BOOST_TEST(std::get<RetryAfterDelay>(d).from_retry_after_header);
  BOOST_TEST(!std::get<RetryAfterDelay>(decide(1, AttemptFailure::status(429))).from_retry_after_header);
}

BOOST_AUTO_TEST_CASE(retry_after_is_capped) {
  RetryPolicy policy;
  policy.max_retry_after = 20s;
  BOOST_TEST(delay_of(decide(1, AttemptFailure::status(503), "3600", policy)).count() == 20000);
  BOOST_TEST(delay_of(decide(1, AttemptFailure::status(503), "99999999999999999999999", policy)).count() == 20000);
}

BOOST_AUTO_TEST_CASE(retry_after_http_date_counts_from_now) {
  auto d = decide(1, AttemptFailure::status(503), "Wed, 01 May 2024 12:00:30 GMT");
  BOOST_TEST(delay_of(d).count() == 30000);
  // In the past: go at once.
  BOOST_TEST(delay_of(decide(1, AttemptFailure::status(503), "Wed, 01 May 2024 11:00:00 GMT")).count() == 0);
}

BOOST_AUTO_TEST_CASE(retry_after_does_not_make_a_client_error_retryable) {
  BOOST_TEST(std::holds_alternative<GiveUp>(decide(1, AttemptFailure::status(400), "1")));
}

BOOST_AUTO_TEST_CASE(unreadable_retry_after_falls_back_to_backoff) {
  RetryPolicy policy;
  policy.base_delay = 100ms;
  for (std::string_view bad : {"soon", "-5", "1.2.3", "", "Wed, 32 May 2024 12:00:30 GMT"}) {
    auto d = decide(1, AttemptFailure::status(429), bad, policy);
    BOOST_TEST(!std::get<RetryAfterDelay>(d).from_retry_after_header, bad);
    BOOST_TEST(delay_of(d).count() <= 100, bad);
  }
}

BOOST_AUTO_TEST_CASE(parses_every_http_date_form) {
  auto expected = std::chrono::sys_days{std::chrono::year{1994} / 11 / 6} + 8h + 49min + 37s;
  BOOST_TEST((parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT") == expected));
  BOOST_TEST((parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT") == expected));
  BOOST_TEST((parse_http_date("Sun Nov  6 08:49:37 1994") == expected));
  BOOST_TEST(!parse_http_date("Sun, 06 Foo 1994 08:49:37 GMT"));
  BOOST_TEST(!parse_http_date("Sun, 06 Nov 1994 25:49:37 GMT"));
  BOOST_TEST(!parse_http_date("Sun, 06 Nov 1994 08:49:37 CET"));
}

BOOST_AUTO_TEST_CASE(parses_fractional_seconds_leniently) {
  BOOST_TEST(parse_retry_after("1.5", kNow)->count() == 1500);
  BOOST_TEST(parse_retry_after(" 0 ", kNow)->count() == 0);
  BOOST_TEST(!parse_retry_after(".5", kNow));
}

BOOST_AUTO_TEST_SUITE_END()
