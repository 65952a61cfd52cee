// The comparison engine (docs/gate.md): rounding, epsilon, both significance tests, item statuses,
// added and removed items, threshold warnings.
#include "gate_test_support.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/gate/comparison.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::core;
using namespace krino::test;

namespace {

const EvaluatorComparison& evaluator(const Comparison& c, const std::string& name) {
  for (const auto& e : c.evaluators)
    if (e.name == name) return e;
  throw std::runtime_error("no evaluator " + name);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gate_comparison)

BOOST_AUTO_TEST_CASE(identical_sides_change_nothing) {
  const auto side = side_of({0.9, 0.8, 0.2, 1.0, 0.6, 0.7, 0.4});
  const Comparison c = compare_sides(side, side, {});
  BOOST_TEST(c.shared == 7u);
  BOOST_TEST(c.pass_rate_test == "mcnemar");
  BOOST_TEST(c.pass_rate_p_value == 1.0);
  BOOST_TEST(c.count(ChangeStatus::unchanged) == 7u);
  BOOST_TEST(evaluator(c, "quality").p_value == 1.0);
  BOOST_TEST(evaluator(c, "quality").status == ChangeStatus::unchanged);
}

BOOST_AUTO_TEST_CASE(deltas_within_epsilon_are_unchanged_even_when_significant) {
  // Every item 0.001 lower: perfectly consistent (significant) but not beyond epsilon.
  std::vector<double> base(20), cand(20);
  for (int i = 0; i < 20; ++i) base[i] = 0.9, cand[i] = 0.899;
  const Comparison c = compare_sides(side_of(base), side_of(cand), {});
  BOOST_TEST(evaluator(c, "quality").significant);
  BOOST_TEST(evaluator(c, "quality").delta == -0.001);
  BOOST_TEST(evaluator(c, "quality").status == ChangeStatus::unchanged);
  for (int i = 0; i < 20; ++i) cand[i] = 0.8985;
  const Comparison beyond = compare_sides(side_of(base), side_of(cand), {});
  BOOST_TEST(evaluator(beyond, "quality").status == ChangeStatus::regressed);
  BOOST_TEST(beyond.count(ChangeStatus::regressed) == 20u);
}

BOOST_AUTO_TEST_CASE(candidate_scores_are_rounded_to_six_decimals) {
  RunProjection run;
  run.runs = 1;
  for (uint64_t i = 0; i < 3; ++i) {
    ItemProjection item;
    item.index = i;
    item.runs = 1;
    item.passing_runs = 1;
    item.evaluators.push_back({"quality", 0.7000004, true, 0.5});
    run.items.push_back(item);
  }
  const ComparisonSide side = side_from_run(run, Pairing::positional);
  BOOST_TEST(*side.items[0].evaluators[0].score == 0.7);
  BOOST_TEST(side.items[2].key == "item-2");
  const Comparison c = compare_sides(side_of({0.7, 0.7, 0.7}), side, {});
  BOOST_TEST(evaluator(c, "quality").delta == 0.0);
  BOOST_TEST(evaluator(c, "quality").p_value == 1.0);
}

BOOST_AUTO_TEST_CASE(severe_drop_is_strictly_beyond_the_margin) {
  const Comparison exactly = compare_sides(side_of({0.9, 0.9}), side_of({0.75, 0.9}), {});
  BOOST_TEST(!exactly.items[0].severe);  // -0.15 is not < -0.15
  const Comparison beyond = compare_sides(side_of({0.9, 0.9}), side_of({0.749999, 0.9}), {});
  BOOST_TEST(beyond.items[0].severe);
  ComparisonOptions wide;
  wide.severity_margin = 0.3;
  BOOST_TEST(!compare_sides(side_of({0.9, 0.9}), side_of({0.7, 0.9}), wide).items[0].severe);
}

BOOST_AUTO_TEST_CASE(a_pass_rate_drop_is_found_by_mcnemar_and_marks_the_flipped_items) {
  std::vector<double> base(30, 0.55), cand(30, 0.55);
  for (int i = 0; i < 10; ++i) cand[i] = 0.45;  // pass -> fail, a small score drop (under the margin)
  const Comparison c = compare_sides(side_of(base), side_of(cand), {});
  BOOST_TEST(c.pass_to_fail == 10u);
  BOOST_TEST(c.fail_to_pass == 0u);
  BOOST_TEST(std::fabs(c.pass_rate_p_value - 0.004426525857919833) < 1e-12);
  BOOST_TEST(c.pass_rate_regressed);
  BOOST_TEST(c.pass_rate_delta == -0.333333);
  BOOST_TEST(c.items[0].status == ChangeStatus::regressed);
  BOOST_TEST(!c.items[0].severe);
  BOOST_TEST(c.items[29].status == ChangeStatus::unchanged);
}

BOOST_AUTO_TEST_CASE(random_flapping_is_not_a_regression) {
  std::vector<double> base(40), cand(40);
  for (int i = 0; i < 40; ++i) {
    base[i] = (i % 2 == 0) ? 0.6 : 0.4;
    cand[i] = (i % 4 < 2) ? 0.6 : 0.4;  // half the items flip, in both directions equally
  }
  const Comparison c = compare_sides(side_of(base), side_of(cand), {});
  BOOST_TEST(c.pass_to_fail == c.fail_to_pass);
  BOOST_TEST(!c.pass_rate_significant);
  BOOST_TEST(evaluator(c, "quality").status == ChangeStatus::unchanged);
  BOOST_TEST(c.count(ChangeStatus::regressed) == 0u);
}

BOOST_AUTO_TEST_CASE(improvements_are_symmetric_and_regression_wins_on_an_item) {
  std::vector<double> base(20, 0.5), cand(20, 0.7);
  const Comparison c = compare_sides(side_of(base), side_of(cand), {});
  BOOST_TEST(evaluator(c, "quality").status == ChangeStatus::improved);
  BOOST_TEST(c.count(ChangeStatus::improved) == 20u);
}

BOOST_AUTO_TEST_CASE(multi_run_candidates_use_the_permutation_test_on_pass_probabilities) {
  ComparisonSide base = side_of(std::vector<double>(20, 0.9));
  ComparisonSide cand = side_of(std::vector<double>(20, 0.9));
  cand.runs = 3;
  for (auto& item : cand.items) item.pass_probability = 1.0 / 3.0;
  const Comparison c = compare_sides(base, cand, {});
  BOOST_TEST(c.pass_rate_test == "permutation");
  BOOST_TEST(c.pass_rate_interval.has_value());
  BOOST_TEST(c.pass_rate_regressed);
  BOOST_TEST(c.candidate_pass_rate == 0.333333);
}

BOOST_AUTO_TEST_CASE(one_shared_item_is_never_significant) {
  const Comparison c = compare_sides(side_of({0.9}), side_of({0.1}), {});
  BOOST_TEST(c.pass_rate_test == "none");
  BOOST_TEST(!c.pass_rate_significant);
  BOOST_TEST(c.items[0].severe);  // guard 2 still sees it
  BOOST_TEST(c.minimum_pairs == 6u);
}

BOOST_AUTO_TEST_CASE(added_and_removed_items_and_evaluators) {
  ComparisonSide base = side_of({0.9, 0.8, 0.7});
  ComparisonSide cand = side_of({0.9, 0.8});
  cand.items.push_back(side_item(5, 0.6));
  cand.items[0].evaluators.push_back({"extra", 1.0, true, 0.5});
  const Comparison c = compare_sides(base, cand, {});
  BOOST_TEST(c.count(ChangeStatus::removed) == 1u);
  BOOST_TEST(c.count(ChangeStatus::added) == 1u);
  BOOST_TEST(c.items[2].key == "item-2");
  BOOST_TEST(c.items[2].status == ChangeStatus::removed);
  BOOST_TEST(c.items[3].key == "item-5");
  BOOST_TEST(evaluator(c, "extra").status == ChangeStatus::added);
  // Top-line pass rates count every item of each side; the tests only the shared ones.
  BOOST_TEST(c.baseline_pass_rate == 1.0);
  BOOST_TEST(c.candidate_pass_rate == 1.0);
  BOOST_TEST(c.shared == 2u);
  const Comparison reverse = compare_sides(cand, base, {});
  BOOST_TEST(evaluator(reverse, "extra").status == ChangeStatus::removed);
}

BOOST_AUTO_TEST_CASE(threshold_changes_only_warn) {
  const Comparison c = compare_sides(side_of({0.9, 0.8}, 0.5), side_of({0.9, 0.8}, 0.7), {});
  BOOST_REQUIRE(c.warnings.size() == 1u);
  BOOST_TEST(c.warnings[0].find("threshold changed from 0.5 to 0.7") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(duplicate_keys_are_an_error) {
  ComparisonSide side = side_of({0.9, 0.8});
  side.items[1].key = side.items[0].key;
  BOOST_CHECK_THROW(compare_sides(side_of({0.9}), side, {}), krino::core::KrinoError);
}

BOOST_AUTO_TEST_CASE(id_pairing_needs_every_id_and_sorts_by_id) {
  RunProjection run;
  run.runs = 1;
  for (uint64_t i = 0; i < 3; ++i) {
    ItemProjection item;
    item.index = i;
    item.runs = 1;
    item.id = std::string(1, static_cast<char>('c' - i));
    item.evaluators.push_back({"quality", 1.0, true, 0.5});
    run.items.push_back(item);
  }
  const ComparisonSide side = side_from_run(run, Pairing::dataset_item_id);
  BOOST_TEST(side.items[0].key == "a");
  BOOST_TEST(*side.items[0].index == 2u);
  run.items[1].id.reset();
  BOOST_CHECK_EXCEPTION(side_from_run(run, Pairing::dataset_item_id), KrinoError,
                        [](const KrinoError& e) { return std::string(e.what()).find("item 1 has no id") != std::string::npos; });
}

BOOST_AUTO_TEST_CASE(an_added_evaluator_shifts_the_others_p_values) {
  // One random stream in name order: documented (docs/gate.md), so pinned here.
  std::vector<double> base(12, 0.8), cand = {0.7, 0.75, 0.8, 0.85, 0.7, 0.72, 0.8, 0.78, 0.9, 0.7, 0.75, 0.8};
  ComparisonSide b = side_of(base), c = side_of(cand);
  const double alone = evaluator(compare_sides(b, c, {}), "quality").p_value;
  for (auto* side : {&b, &c})
    for (auto& item : side->items) item.evaluators.insert(item.evaluators.begin(), {"accuracy", 0.5, true, 0.5});
  for (size_t i = 0; i < c.items.size(); ++i) c.items[i].evaluators[0].score = 0.5 + 0.01 * static_cast<double>(i % 3);
  const double with_other = evaluator(compare_sides(b, c, {}), "quality").p_value;
  BOOST_TEST(alone != with_other);
}

BOOST_AUTO_TEST_SUITE_END()
