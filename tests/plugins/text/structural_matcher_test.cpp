// compare_structures: leaves, denominators, null vs missing, arrays in both modes.
#include "structural_matcher.h"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

using namespace krino::text;
using boost::json::parse;

namespace {

StructuralComparison strict(std::string_view expected, std::string_view actual) {
  return compare_structures(parse(expected), parse(actual), StructuralMode::strict);
}
StructuralComparison lenient(std::string_view expected, std::string_view actual) {
  return compare_structures(parse(expected), parse(actual), StructuralMode::lenient);
}
std::vector<std::string> paths(const StructuralComparison& c) {
  std::vector<std::string> out;
  for (const auto& d : c.differences) out.push_back(d.path);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(structural_matcher)

BOOST_AUTO_TEST_CASE(numbers_compare_by_value_in_both_modes) {
  // An invoice with 42.0 against one with 42.00.
  const char* expected = R"({"id": "INV-1", "total": 42.0, "lines": ["a", "b"]})";
  const char* actual = R"({"lines": ["a", "b"], "total": 42.00, "id": "INV-1"})";
  for (const auto& c : {strict(expected, actual), lenient(expected, actual)}) {
    BOOST_TEST(c.all_match());
    BOOST_TEST(c.matched_leaves == 4u);
    BOOST_TEST(c.total_leaves == 4u);
  }
  BOOST_TEST(strict("5", "5.0").all_match());
  BOOST_TEST(strict(R"({"n": 1})", R"({"n": 1.0})").all_match());
  BOOST_TEST(lenient("[1.0, 2]", "[2.00, 1]").all_match());
}

BOOST_AUTO_TEST_CASE(numbers_within_one_billionth_match_and_big_integers_are_exact) {
  BOOST_TEST(strict("0.1", "0.1000000001").all_match());
  BOOST_TEST(!strict("1", "1.000001").all_match());
  BOOST_TEST(!strict("9007199254740993", "9007199254740992.0").all_match());
  BOOST_TEST(strict("18446744073709551615", "18446744073709551615").all_match());
}

BOOST_AUTO_TEST_CASE(types_must_agree) {
  BOOST_TEST(!strict(R"({"a": "5"})", R"({"a": 5})").all_match());
  BOOST_TEST(!strict(R"({"a": true})", R"({"a": 1})").all_match());
  BOOST_TEST(!strict(R"({"a": []})", R"({"a": {}})").all_match());
  BOOST_TEST(!strict(R"({"a": "x"})", R"({"a": "X"})").all_match());
}

BOOST_AUTO_TEST_CASE(strict_null_differs_from_a_missing_field_lenient_does_not) {
  const StructuralComparison s = strict(R"({"a": null})", "{}");
  BOOST_TEST(!s.all_match());
  BOOST_TEST(s.matched_leaves == 0u);
  BOOST_TEST(s.total_leaves == 1u);
  BOOST_TEST(s.differences.at(0).path == "$.a");
  BOOST_TEST(s.differences.at(0).detail == "missing (expected null)");
  const StructuralComparison l = lenient(R"({"a": null})", "{}");
  BOOST_TEST(l.all_match());
  BOOST_TEST(l.total_leaves == 1u);
  // null matches null in both modes; null never matches a value.
  BOOST_TEST(strict(R"({"a": null})", R"({"a": null})").all_match());
  BOOST_TEST(!lenient(R"({"a": null})", R"({"a": 0})").all_match());
  BOOST_TEST(!lenient(R"({"a": 0})", R"({"a": null})").all_match());
  BOOST_TEST(!strict("{}", R"({"a": null})").all_match());
}

BOOST_AUTO_TEST_CASE(strict_counts_the_union_of_leaves_lenient_only_expected_leaves) {
  const char* expected = R"({"a": 1, "b": 2})";
  const char* actual = R"({"a": 1, "b": 3, "c": 4})";
  const StructuralComparison s = strict(expected, actual);
  BOOST_TEST(s.matched_leaves == 1u);
  BOOST_TEST(s.total_leaves == 3u);
  BOOST_TEST(paths(s) == (std::vector<std::string>{"$.b", "$.c"}));
  BOOST_TEST(s.differences.at(1).detail == "unexpected (got 4)");
  const StructuralComparison l = lenient(expected, actual);
  BOOST_TEST(l.matched_leaves == 1u);
  BOOST_TEST(l.total_leaves == 2u);
  BOOST_TEST(paths(l) == (std::vector<std::string>{"$.b"}));
  BOOST_TEST(l.differences.at(0).detail == "expected 2, got 3");
}

BOOST_AUTO_TEST_CASE(extra_actual_fields_lower_only_the_strict_score) {
  BOOST_TEST(lenient(R"({"a": 1})", R"({"a": 1, "b": {"c": [1, 2]}})").all_match());
  const StructuralComparison s = strict(R"({"a": 1})", R"({"a": 1, "b": {"c": [1, 2]}})");
  // The extra subtree meets a missing field: one type-mismatch leaf.
  BOOST_TEST(s.matched_leaves == 1u);
  BOOST_TEST(s.total_leaves == 2u);
}

BOOST_AUTO_TEST_CASE(a_subtree_against_a_missing_or_scalar_value_is_one_leaf) {
  const StructuralComparison c = strict(R"({"a": {"x": 1, "y": 2}, "b": 1})", R"({"a": 5, "b": 1})");
  BOOST_TEST(c.matched_leaves == 1u);
  BOOST_TEST(c.total_leaves == 2u);
  BOOST_TEST(c.differences.at(0).detail == R"(expected {"x":1,"y":2}, got 5)");
}

BOOST_AUTO_TEST_CASE(empty_containers_are_leaves) {
  const StructuralComparison both_empty = strict("{}", "{}");
  BOOST_TEST(both_empty.all_match());
  BOOST_TEST(both_empty.total_leaves == 1u);
  const StructuralComparison c = strict(R"({"a": {}, "b": [], "c": 1})", R"({"a": {}, "b": [], "c": 2})");
  BOOST_TEST(c.matched_leaves == 2u);
  BOOST_TEST(c.total_leaves == 3u);
  // Strict: an empty expected object against a non-empty one counts the actual fields.
  const StructuralComparison extra = strict("{}", R"({"x": 1})");
  BOOST_TEST(extra.matched_leaves == 0u);
  BOOST_TEST(extra.total_leaves == 1u);
  // Lenient: an empty expected container is satisfied by any container of its kind.
  BOOST_TEST(lenient("{}", R"({"x": 1})").all_match());
  BOOST_TEST(lenient("[]", "[1, 2]").all_match());
  BOOST_TEST(!lenient("[]", "{}").all_match());
}

BOOST_AUTO_TEST_CASE(strict_arrays_compare_by_index_up_to_the_longer_length) {
  const StructuralComparison shorter = strict("[1, 2, 3]", "[1, 2]");
  BOOST_TEST(shorter.matched_leaves == 2u);
  BOOST_TEST(shorter.total_leaves == 3u);
  BOOST_TEST(paths(shorter) == (std::vector<std::string>{"$[2]"}));
  const StructuralComparison longer = strict("[1]", "[1, 2, 3]");
  BOOST_TEST(longer.matched_leaves == 1u);
  BOOST_TEST(longer.total_leaves == 3u);
  const StructuralComparison order = strict("[1, 2]", "[2, 1]");
  BOOST_TEST(order.matched_leaves == 0u);
  BOOST_TEST(order.total_leaves == 2u);
}

BOOST_AUTO_TEST_CASE(lenient_arrays_are_multisets) {
  // [1,1,2] against [1,2] is not a match.
  const StructuralComparison c = lenient("[1, 1, 2]", "[1, 2]");
  BOOST_TEST(!c.all_match());
  BOOST_TEST(c.matched_leaves == 2u);
  BOOST_TEST(c.total_leaves == 3u);
  BOOST_TEST(paths(c) == (std::vector<std::string>{"$[1]"}));
  BOOST_TEST(c.differences.at(0).detail == "no unused element of the actual array matches 1");
  BOOST_TEST(lenient("[1, 1, 2]", "[2, 1, 1]").all_match());
  // Extra actual elements are allowed.
  BOOST_TEST(lenient("[1, 2]", "[3, 2, 1]").all_match());
}

BOOST_AUTO_TEST_CASE(lenient_array_elements_match_completely_and_count_all_their_leaves) {
  const StructuralComparison ok = lenient(R"([{"id": 1, "tags": ["x", "y"]}, {"id": 2}])",
                                          R"([{"id": 2, "extra": true}, {"tags": ["y", "x"], "id": 1.0}])");
  BOOST_TEST(ok.all_match());
  BOOST_TEST(ok.matched_leaves == 4u);
  BOOST_TEST(ok.total_leaves == 4u);
  const StructuralComparison partial = lenient(R"([{"a": 1, "b": 2}, 3])", R"([{"a": 1, "b": 5}, 3])");
  BOOST_TEST(partial.matched_leaves == 1u);
  BOOST_TEST(partial.total_leaves == 3u);
  BOOST_TEST(paths(partial) == (std::vector<std::string>{"$[0]"}));
}

BOOST_AUTO_TEST_CASE(lenient_arrays_pair_greedily_in_expected_order) {
  // {"a":1} takes the first actual element it matches (a superset), leaving {"a":1} for
  // {"a":1,"b":2}, which it does not match. Greedy, as specified; no search for a better pairing.
  const StructuralComparison c = lenient(R"([{"a": 1}, {"a": 1, "b": 2}])", R"([{"a": 1, "b": 2}, {"a": 1}])");
  BOOST_TEST(c.matched_leaves == 1u);
  BOOST_TEST(c.total_leaves == 3u);
  BOOST_TEST(lenient(R"([{"a": 1, "b": 2}, {"a": 1}])", R"([{"a": 1, "b": 2}, {"a": 1}])").all_match());
}

BOOST_AUTO_TEST_CASE(paths_name_the_location) {
  const StructuralComparison c = strict(R"({"a": {"b": [1, 2, 3]}, "odd key": 1, "x.y": 2, "_ok9": 3})",
                                        R"({"a": {"b": [1, 2, 4]}, "odd key": 0, "x.y": 0, "_ok9": 0})");
  BOOST_TEST(paths(c) == (std::vector<std::string>{"$.a.b[2]", R"($["odd key"])", R"($["x.y"])", "$._ok9"}));
  BOOST_TEST(c.differences.at(0).detail == "expected 3, got 4");
}

BOOST_AUTO_TEST_CASE(long_values_are_cut_in_details) {
  const std::string long_text = std::string(100, 'z');
  const StructuralComparison c = strict("\"" + long_text + "\"", R"("short")");
  BOOST_TEST(c.differences.at(0).detail == "expected \"" + std::string(60, 'z') + "\"…(+40 chars), got \"short\"");
}

BOOST_AUTO_TEST_CASE(differences_beyond_the_limit_are_counted_not_described) {
  boost::json::array expected;
  boost::json::array actual;
  for (int i = 0; i < 150; ++i) {
    expected.push_back(i);
    actual.push_back(-i - 1);
  }
  const StructuralComparison c = compare_structures(expected, actual, StructuralMode::strict);
  BOOST_TEST(c.difference_count == 150u);
  BOOST_TEST(c.differences.size() == kMaxRecordedDifferences);
  BOOST_TEST(c.total_leaves == 150u);
}

BOOST_AUTO_TEST_CASE(count_leaves_counts_scalars_nulls_and_empty_containers) {
  BOOST_TEST(count_leaves(parse("1")) == 1u);
  BOOST_TEST(count_leaves(parse("{}")) == 1u);
  BOOST_TEST(count_leaves(parse(R"({"a": [1, null, {}], "b": {"c": []}})")) == 4u);
}

BOOST_AUTO_TEST_SUITE_END()
