#include "krino/core/common/error.hpp"
#include "krino/core/usage/cost_rollup.hpp"
#include "krino/core/usage/price_table.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

using namespace krino::core;
namespace json = boost::json;

namespace {

PriceTable reference_table() {
  return PriceTable::from_json(
      json::parse(R"({"gpt-5-nano": {"input_per_million": 0.05, "output_per_million": 0.40}})").as_object());
}

std::string parse_error(std::string_view text) {
  try {
    PriceTable::from_json(json::parse(text).as_object(), "judges.default.prices");
  } catch (const KrinoError& e) {
    BOOST_TEST((e.kind() == ErrorKind::configuration));
    return e.what();
  }
  BOOST_FAIL("expected a configuration error for " << text);
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(judge_price_table)

BOOST_AUTO_TEST_CASE(reference_formula_rounded_to_six_decimals) {
  auto table = reference_table();
  // (1000 * 0.05 + 500 * 0.40) / 1e6 = 0.00025
  BOOST_TEST(*table.cost_usd("gpt-5-nano", 1000, 500) == 0.00025);
  // (3 * 0.05 + 1 * 0.40) / 1e6 = 5.5e-7, rounds to 0.000001
  BOOST_TEST(*table.cost_usd("gpt-5-nano", 3, 1) == 0.000001);
  // (3 * 0.05) / 1e6 = 1.5e-7 rounds to 0
  BOOST_TEST(*table.cost_usd("gpt-5-nano", 3, 0) == 0.0);
  // Large counts do not overflow: 10^10 input tokens cost 500 USD.
  BOOST_TEST(*table.cost_usd("gpt-5-nano", 10'000'000'000, 0) == 500.0);
}

BOOST_AUTO_TEST_CASE(unknown_model_or_missing_tokens_is_null) {
  auto table = reference_table();
  BOOST_TEST(!table.cost_usd("gpt-5", 1000, 500));
  BOOST_TEST(!table.cost_usd("GPT-5-NANO", 1000, 500));  // exact names only
  BOOST_TEST(!table.cost_usd("", 1000, 500));
  BOOST_TEST(!table.cost_usd("gpt-5-nano", std::nullopt, 500));
  BOOST_TEST(!table.cost_usd("gpt-5-nano", 1000, std::nullopt));
  BOOST_TEST(!table.cost_usd("gpt-5-nano", -1, 500));
  BOOST_TEST(!PriceTable().cost_usd("gpt-5-nano", 1000, 500));
}

BOOST_AUTO_TEST_CASE(parse_errors_name_the_key) {
  BOOST_TEST(parse_error(R"({"m": 1})").find("judges.default.prices.m: expected a mapping") == 0u);
  BOOST_TEST(parse_error(R"({"m": {"input_per_million": 1}})") ==
             "judges.default.prices.m: 'output_per_million' is required");
  BOOST_TEST(parse_error(R"({"m": {"input_per_million": "1", "output_per_million": 2}})")
                 .find("judges.default.prices.m.input_per_million: expected a number") == 0u);
  BOOST_TEST(parse_error(R"({"m": {"input_per_million": 1, "output_per_million": -2}})") ==
             "judges.default.prices.m.output_per_million: must be zero or more");
  BOOST_TEST(parse_error(R"({"m": {"input_per_million": 1, "output_per_million": 2, "input_per_milion": 3}})")
                 .find("judges.default.prices.m.input_per_milion: unknown key") == 0u);
}

BOOST_AUTO_TEST_CASE(integer_prices_are_accepted) {
  auto table = PriceTable::from_json(json::parse(R"({"m": {"input_per_million": 1, "output_per_million": 2}})").as_object());
  BOOST_REQUIRE(table.find("m"));
  BOOST_TEST(table.find("m")->output_per_million == 2.0);
  BOOST_TEST(*table.cost_usd("m", 1'000'000, 1'000'000) == 3.0);
}

BOOST_AUTO_TEST_CASE(rollup_sums_known_costs_and_counts_coverage) {
  CostRollup r;
  r.add(100, 10, 0.25);                   // tokenized, priced
  r.add(100, std::nullopt, std::nullopt);  // tokenized (OR), not priced
  r.add(std::nullopt, 5, 0.5);            // tokenized by output alone, priced
  r.add(std::nullopt, std::nullopt, std::nullopt);  // counts toward neither
  BOOST_TEST(*r.total() == 0.75);
  BOOST_TEST(r.priced_item_count == 2u);
  BOOST_TEST(r.tokenized_item_count == 3u);
  BOOST_TEST(*r.coverage_text() == "2/3 items priced");
}

BOOST_AUTO_TEST_CASE(full_coverage_has_no_text_and_no_cost_has_no_total) {
  CostRollup all;
  all.add(1, 1, 0.1);
  all.add(2, 2, 0.2);
  BOOST_TEST(!all.coverage_text());

  CostRollup none;
  none.add(1, 1, std::nullopt);
  BOOST_TEST(!none.total());
  BOOST_TEST(*none.coverage_text() == "0/1 items priced");

  BOOST_TEST(!CostRollup{}.total());
  BOOST_TEST(!CostRollup{}.coverage_text());
}

BOOST_AUTO_TEST_CASE(a_cost_without_tokens_is_summed_but_not_coverage) {
  CostRollup r;
  r.add(std::nullopt, std::nullopt, 1.5);  // e.g. a framework that reports only a cost
  r.add(10, 10, std::nullopt);
  BOOST_TEST(*r.total() == 1.5);
  BOOST_TEST(*r.coverage_text() == "0/1 items priced");
}

BOOST_AUTO_TEST_CASE(rollups_merge) {
  CostRollup a, b;
  a.add(1, 1, 0.125);
  b.add(1, 1, std::nullopt);
  b.add(1, 1, 0.25);
  a.merge(b);
  BOOST_TEST(*a.total() == 0.375);
  BOOST_TEST(*a.coverage_text() == "2/3 items priced");
}

BOOST_AUTO_TEST_SUITE_END()
