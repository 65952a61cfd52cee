#include "krino/core/llm/concurrency_limiter.hpp"

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <thread>
#include <vector>

using namespace krino::core;

namespace {

// Collects granted slots so a test can release them when it chooses.
struct Granted {
  std::vector<ConcurrencySlot> slots;
  ConcurrencyLimiter::Grant callback() {
    return [this](ConcurrencySlot s) { slots.push_back(s); };
  }
};

void fill(ConcurrencyLimiter& limiter, Granted& granted, int n) {
  for (int i = 0; i < n; ++i) limiter.acquire(granted.callback());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(judge_concurrency_limiter)

BOOST_AUTO_TEST_CASE(starts_at_the_maximum_and_queues_beyond_it) {
  ConcurrencyLimiter limiter(4);
  Granted granted;
  fill(limiter, granted, 6);
  BOOST_TEST(granted.slots.size() == 4u);
  BOOST_TEST(limiter.in_flight() == 4);
  BOOST_TEST(limiter.waiting() == 2u);
  BOOST_TEST(limiter.window() == 4.0);
}

BOOST_AUTO_TEST_CASE(waiters_are_served_in_order) {
  ConcurrencyLimiter limiter(1);
  std::vector<int> order;
  std::vector<ConcurrencySlot> slots;
  for (int i = 0; i < 4; ++i) {
    limiter.acquire([&, i](ConcurrencySlot s) {
      order.push_back(i);
      slots.push_back(s);
    });
  }
  for (size_t i = 0; i < 3; ++i) limiter.release(slots[i], SlotOutcome::success);
  BOOST_TEST(order == (std::vector<int>{0, 1, 2, 3}), boost::test_tools::per_element());
  BOOST_TEST(limiter.waiting() == 0u);
}

BOOST_AUTO_TEST_CASE(a_wave_of_429s_halves_once) {
  ConcurrencyLimiter limiter(16);
  Granted granted;
  fill(limiter, granted, 16);
  for (auto slot : granted.slots) limiter.release(slot, SlotOutcome::rate_limited);
  BOOST_TEST(limiter.window() == 8.0);
  BOOST_TEST(limiter.decreases() == 1u);
}

BOOST_AUTO_TEST_CASE(a_429_from_a_later_wave_halves_again_down_to_one) {
  ConcurrencyLimiter limiter(16);
  double expected[] = {8, 4, 2, 1, 1};
  for (double e : expected) {
    Granted wave;
    fill(limiter, wave, limiter.limit());
    for (auto slot : wave.slots) limiter.release(slot, SlotOutcome::rate_limited);
    BOOST_TEST(limiter.window() == e);
  }
  BOOST_TEST(limiter.limit() == 1);
}

BOOST_AUTO_TEST_CASE(a_decrease_holds_back_queued_callers) {
  ConcurrencyLimiter limiter(4);
  Granted granted;
  fill(limiter, granted, 8);  // 4 in flight, 4 waiting
  limiter.release(granted.slots[0], SlotOutcome::rate_limited);  // window 2, 3 still in flight
  BOOST_TEST(granted.slots.size() == 4u);
  BOOST_TEST(limiter.in_flight() == 3);
  limiter.release(granted.slots[1], SlotOutcome::success);  // 2 in flight, window just above 2
  BOOST_TEST(granted.slots.size() == 4u);
  limiter.release(granted.slots[2], SlotOutcome::success);
  BOOST_TEST(granted.slots.size() == 5u);  // 1 in flight: one waiter goes
  BOOST_TEST(limiter.in_flight() == 2);
}

BOOST_AUTO_TEST_CASE(successes_grow_the_window_by_one_per_window) {
  ConcurrencyLimiter limiter(10);
  Granted first;
  fill(limiter, first, 10);
  limiter.release(first.slots[0], SlotOutcome::rate_limited);  // window 5
  for (size_t i = 1; i < first.slots.size(); ++i) limiter.release(first.slots[i], SlotOutcome::other);
  BOOST_TEST(limiter.window() == 5.0);
  // Five successes at window ~5 add about one slot.
  for (int i = 0; i < 5; ++i) {
    Granted one;
    limiter.acquire(one.callback());
    limiter.release(one.slots.at(0), SlotOutcome::success);
  }
  BOOST_TEST(limiter.window() > 5.9);
  BOOST_TEST(limiter.window() < 6.0);
  BOOST_TEST(limiter.limit() == 5);
  // Never above the maximum.
  for (int i = 0; i < 1000; ++i) {
    Granted one;
    limiter.acquire(one.callback());
    limiter.release(one.slots.at(0), SlotOutcome::success);
  }
  BOOST_TEST(limiter.window() == 10.0);
}

BOOST_AUTO_TEST_CASE(other_failures_leave_the_window_alone) {
  ConcurrencyLimiter limiter(3);
  Granted granted;
  fill(limiter, granted, 3);
  for (auto slot : granted.slots) limiter.release(slot, SlotOutcome::other);
  BOOST_TEST(limiter.window() == 3.0);
  BOOST_TEST(limiter.in_flight() == 0);
}

BOOST_AUTO_TEST_CASE(a_grant_may_release_from_inside_its_callback) {
  ConcurrencyLimiter limiter(1);
  int done = 0;
  std::function<void(ConcurrencySlot)> finish = [&](ConcurrencySlot s) {
    ++done;
    limiter.release(s, SlotOutcome::success);
  };
  for (int i = 0; i < 5; ++i) limiter.acquire(finish);
  BOOST_TEST(done == 5);
  BOOST_TEST(limiter.in_flight() == 0);
}

BOOST_AUTO_TEST_CASE(threads_never_exceed_the_limit) {
  ConcurrencyLimiter limiter(3);
  std::atomic<int> running{0}, peak{0}, finished{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        limiter.acquire([&](ConcurrencySlot s) {
          int now = ++running;
          int seen = peak.load();
          while (now > seen && !peak.compare_exchange_weak(seen, now)) {
          }
          --running;
          ++finished;
          limiter.release(s, SlotOutcome::success);
        });
      }
    });
  }
  for (auto& t : threads) t.join();
  BOOST_TEST(finished.load() == 1200);
  BOOST_TEST(peak.load() <= 3);
  BOOST_TEST(limiter.in_flight() == 0);
}

BOOST_AUTO_TEST_SUITE_END()
