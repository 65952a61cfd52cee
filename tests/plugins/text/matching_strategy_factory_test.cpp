// The matching strategies of precision and recall, one by one.
#include "matching_strategy_factory.h"

#include "text_test_support.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

using namespace krino::text;
using namespace krino::text::testing;
using boost::json::parse;

namespace {

bool match(std::string_view spec, std::string_view retrieved, std::string_view expected) {
  const auto strategy = make_matching_strategy(parse(spec));
  krino::CallContext ctx(nullptr, nullptr);
  return strategy->matches(parse(retrieved), parse(expected), ctx);
}

std::string describe(std::string_view spec) { return make_matching_strategy(parse(spec))->describe(); }

}  // namespace

BOOST_AUTO_TEST_SUITE(matching_strategy_factory)

BOOST_AUTO_TEST_CASE(null_means_equality) {
  BOOST_TEST(make_matching_strategy(boost::json::value())->describe() == "equality");
  BOOST_TEST(describe("{}") == "equality");
}

BOOST_AUTO_TEST_CASE(equality_is_by_value) {
  const char* spec = R"({"strategy": "equality"})";
  BOOST_TEST(match(spec, R"("doc-1")", R"("doc-1")"));
  BOOST_TEST(!match(spec, R"("doc-1")", R"("Doc-1")"));
  BOOST_TEST(match(spec, "7", "7.0"));
  BOOST_TEST(!match(spec, R"("7")", "7"));
  BOOST_TEST(match(spec, R"({"id": 1, "t": "x"})", R"({"t": "x", "id": 1.0})"));
}

BOOST_AUTO_TEST_CASE(case_insensitive_folds_strings_only) {
  const char* spec = R"({"strategy": "case_insensitive"})";
  BOOST_TEST(match(spec, R"("DOC-1")", R"("doc-1")"));
  BOOST_TEST(match(spec, R"("Ärger")", R"("äRGER")"));
  BOOST_TEST(!match(spec, R"("doc-1 ")", R"("doc-1")"));
  BOOST_TEST(!match(spec, R"("doc")", R"("do.")"));
  BOOST_TEST(match(spec, "1", "1.0"));
}

BOOST_AUTO_TEST_CASE(field_compares_one_field) {
  const char* spec = R"({"strategy": "field", "field": "id"})";
  BOOST_TEST(describe(spec) == "field(id)");
  BOOST_TEST(match(spec, R"({"id": "a", "text": "x"})", R"({"id": "a", "text": "y"})"));
  BOOST_TEST(!match(spec, R"({"id": "a"})", R"({"id": "b"})"));
  BOOST_TEST(match(spec, R"({"id": 3})", R"({"id": 3.0})"));
  // A bare value stands for itself.
  BOOST_TEST(match(spec, R"({"id": "a", "score": 0.9})", R"("a")"));
  BOOST_TEST(match(spec, R"("a")", R"("a")"));
  // Two items without the field (or with null) do not match each other.
  BOOST_TEST(!match(spec, R"({"text": "x"})", R"({"text": "x"})"));
  BOOST_TEST(!match(spec, R"({"id": null})", R"({"id": null})"));
}

BOOST_AUTO_TEST_CASE(fields_compares_every_listed_field) {
  const char* spec = R"({"strategy": "fields", "fields": ["subject", "predicate", "object"]})";
  BOOST_TEST(describe(spec) == "fields(subject, predicate, object)");
  BOOST_TEST(match(spec, R"({"subject": "Paris", "predicate": "capital_of", "object": "France", "confidence": 0.4})",
                   R"({"subject": "Paris", "predicate": "capital_of", "object": "France"})"));
  BOOST_TEST(!match(spec, R"({"subject": "Paris", "predicate": "capital_of", "object": "Italy"})",
                    R"({"subject": "Paris", "predicate": "capital_of", "object": "France"})"));
  BOOST_TEST(!match(spec, R"({"subject": "Paris", "predicate": "capital_of"})",
                    R"({"subject": "Paris", "predicate": "capital_of"})"));
  BOOST_TEST(match(spec, R"("x")", R"("x")"));
  BOOST_TEST(!match(spec, R"({"subject": "x"})", R"("x")"));
}

BOOST_AUTO_TEST_CASE(containment_means_the_retrieved_text_contains_the_expected_text) {
  const char* spec = R"({"strategy": "containment"})";
  BOOST_TEST(describe(spec) == "containment");
  BOOST_TEST(match(spec, R"("Paris is the capital of France.")", R"("capital of France")"));
  BOOST_TEST(!match(spec, R"("capital of France")", R"("Paris is the capital of France.")"));
  BOOST_TEST(!match(spec, R"("Capital of  France")", R"("capital of France")"));
  BOOST_TEST(match(spec, R"("")", R"("")"));
  BOOST_TEST(!match(spec, R"("anything")", R"("")"));
  BOOST_TEST(match(spec, "[1]", "[1.0]"));
}

BOOST_AUTO_TEST_CASE(normalized_containment_collapses_white_space_and_ignores_case) {
  const char* spec = R"({"strategy": "containment", "normalize": true})";
  BOOST_TEST(describe(spec) == "containment(normalized)");
  BOOST_TEST(match(spec, R"("PARIS is the\n capital   of France.")", R"("  capital of\tfrance ")"));
  BOOST_TEST(!match(spec, R"("capitalof France")", R"("capital of France")"));
  BOOST_TEST(!match(spec, R"("some text")", R"(" \n ")"));
  BOOST_TEST(match(spec, R"("  ")", R"("")"));
}

BOOST_AUTO_TEST_CASE(any_of_and_all_of_combine) {
  const char* any = R"({"strategy": "any_of", "strategies": [{"strategy": "field", "field": "id"},
                                                             {"strategy": "field", "field": "url"}]})";
  BOOST_TEST(describe(any) == "any_of(field(id), field(url))");
  BOOST_TEST(match(any, R"({"id": 1, "url": "a"})", R"({"id": 2, "url": "a"})"));
  BOOST_TEST(!match(any, R"({"id": 1, "url": "a"})", R"({"id": 2, "url": "b"})"));
  const char* all = R"({"strategy": "all_of", "strategies": [{"strategy": "field", "field": "id"},
                                                             {"strategy": "field", "field": "url"}]})";
  BOOST_TEST(describe(all) == "all_of(field(id), field(url))");
  BOOST_TEST(!match(all, R"({"id": 1, "url": "a"})", R"({"id": 2, "url": "a"})"));
  BOOST_TEST(match(all, R"({"id": 1, "url": "a"})", R"({"id": 1.0, "url": "a"})"));
  const char* nested = R"({"strategy": "any_of", "strategies": [{"strategy": "all_of", "strategies": [{}]},
                                                                {"strategy": "containment", "normalize": true}]})";
  BOOST_TEST(describe(nested) == "any_of(all_of(equality), containment(normalized))");
}

BOOST_AUTO_TEST_CASE(configuration_errors_name_the_option_path) {
  BOOST_CHECK_EXCEPTION(make_matching_strategy(parse(R"("equality")")), krino::Error, invalid("option 'matching' must be an object"));
  BOOST_CHECK_EXCEPTION(make_matching_strategy(parse(R"({"strategy": "semantic"})")), krino::Error,
                        invalid("option 'matching.strategy' must be one of equality, case_insensitive, field, fields, "
                                "containment, any_of, all_of; got 'semantic'"));
  BOOST_CHECK_EXCEPTION(make_matching_strategy(parse(R"({"strategy": 1})")), krino::Error,
                        invalid("option 'matching.strategy' must be a string"));
  BOOST_CHECK_EXCEPTION(make_matching_strategy(parse(R"({"strategy": "field"})")), krino::Error,
                        invalid("strategy 'field' needs option 'matching.field'"));
  BOOST_CHECK_EXCEPTION(make_matching_strategy(parse(R"({"strategy": "field", "field": ""})")), krino::Error,
                        invalid("option 'matching.field' must be a non-empty string"));
  BOOST_CHECK_EXCEPTION(make_matching_strategy(parse(R"({"strategy": "fields", "fields": []})")), krino::Error,
                        invalid("option 'matching.fields' must be a non-empty list"));
  BOOST_CHECK_EXCEPTION(make_matching_strategy(parse(R"({"strategy": "fields", "fields": ["a", 2]})")), krino::Error,
                        invalid("option 'matching.fields' must be a non-empty string"));
  BOOST_CHECK_EXCEPTION(make_matching_strategy(parse(R"({"strategy": "equality", "normalize": true})")), krino::Error,
                        invalid("option 'matching.normalize' does not apply to strategy 'equality'"));
  BOOST_CHECK_EXCEPTION(make_matching_strategy(parse(R"({"strategy": "containment", "normalize": "yes"})")), krino::Error,
                        invalid("option 'matching.normalize' must be true or false"));
  BOOST_CHECK_EXCEPTION(make_matching_strategy(parse(R"({"strategy": "any_of"})")), krino::Error,
                        invalid("strategy 'any_of' needs option 'matching.strategies'"));
  BOOST_CHECK_EXCEPTION(make_matching_strategy(parse(R"({"strategy": "all_of", "strategies": []})")), krino::Error,
                        invalid("option 'matching.strategies' must be a non-empty list"));
  BOOST_CHECK_EXCEPTION(
      make_matching_strategy(parse(R"({"strategy": "any_of", "strategies": [{}, {"strategy": "field"}]})")), krino::Error,
      invalid("strategy 'field' needs option 'matching.strategies[1].field'"));
  BOOST_CHECK_EXCEPTION(make_matching_strategy(parse(R"({"strategy": "any_of", "strategies": [null]})")), krino::Error,
                        invalid("option 'matching.strategies[0]' must be an object"));
}

BOOST_AUTO_TEST_SUITE_END()
