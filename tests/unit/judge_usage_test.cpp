// What judge calls cost, counted per item and shared out per evaluator: the runner takes the item's
// share before and after each evaluator's call (CallAttribution::take_share).
#include "krino/core/usage/judge_usage.hpp"

#include <boost/test/unit_test.hpp>

#include <optional>
#include <vector>

using krino::core::CallAttribution;
using krino::core::JudgeCallRecord;
using krino::core::JudgeUsage;

namespace {

JudgeCallRecord call_with_tokens(std::optional<double> cost) {
  JudgeCallRecord call;
  call.ok = true;
  call.attempts = 1;
  call.tokens_in = 110;
  call.tokens_out = 8;
  call.cost_usd = cost;
  return call;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(judge_usage)

// Three evaluators on one item, their judges unpriced, priced, unpriced. Each share says what its
// own calls were. As differences of the item's totals, the third share read "priced at 0 USD" (the
// total's flag was on before it, and its cost had not moved).
BOOST_AUTO_TEST_CASE(each_evaluator_gets_what_its_own_calls_cost) {
  CallAttribution item;
  item.add(call_with_tokens(std::nullopt));  // the task's call: nobody's share
  const std::optional<double> costs[] = {std::nullopt, 0.0000325, std::nullopt};
  std::vector<JudgeUsage> shares;
  for (const std::optional<double>& cost : costs) {
    item.take_share();
    item.add(call_with_tokens(cost));
    shares.push_back(item.take_share());
  }
  for (const JudgeUsage& share : shares) {
    BOOST_TEST(share.calls == 1u);
    BOOST_TEST(share.tokens_in.value_or(0) == 110);
  }
  BOOST_TEST(shares[0].unpriced_tokens);
  BOOST_TEST(!shares[0].cost_usd.has_value());
  BOOST_TEST(!shares[1].unpriced_tokens);
  BOOST_TEST(shares[1].cost_usd.value_or(0) == 0.0000325);  // bit for bit its call's cost
  BOOST_TEST(shares[1].priced());
  BOOST_TEST(shares[2].unpriced_tokens);
  BOOST_TEST(!shares[2].cost_usd.has_value());
  const JudgeUsage total = item.usage();
  BOOST_TEST(total.calls == 4u);
  BOOST_TEST(total.unpriced_tokens);
  BOOST_TEST(!total.priced());
}

// A cache hit spent nothing: its share is priced at 0 and has no tokens.
BOOST_AUTO_TEST_CASE(a_cache_hit_is_a_share_priced_at_nothing) {
  CallAttribution item;
  JudgeCallRecord hit;
  hit.ok = true;
  hit.cached = true;
  item.add(hit);
  const JudgeUsage share = item.take_share();
  BOOST_TEST(share.cached_calls == 1u);
  BOOST_TEST(!share.unpriced_tokens);
  BOOST_TEST(share.cost_usd.value_or(-1) == 0.0);
  BOOST_TEST(item.take_share().empty());  // taken once
}

BOOST_AUTO_TEST_SUITE_END()
