#pragma once
// Catch2 adapters (v2, <catch2/catch.hpp>; header-only over libkrino-testing).
//
//   CHECK_EVAL(test_case, exact_match);           // the test case goes on
//   REQUIRE_EVAL(test_case, exact_match, judge);  // the test case stops
//   CHECK_EVAL(check);                            // a check_eval() made before
//
// One section per example of a dataset, with GENERATE:
//
//   TEST_CASE("capitals") {
//     const krino::testing::Example example = GENERATE(krino::testing::catch2::dataset("capitals.jsonl"));
//     CAPTURE(example);
//     CHECK_EVAL(example.test_case_with_output(capital_of(example.input())), exact_match());
//   }
//
// A miss fails with failure_message()'s text. A dataset that cannot be read yields one example
// whose accessors throw the reason, which fails the test case.
#include "krino/testing/eval_check.hpp"
#include "krino/testing/evaluators.hpp"
#include "krino/testing/example.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace krino::testing::catch2 {

inline Catch::Generators::GeneratorWrapper<Example> dataset(const std::string& uri, const LoadOptions& options = {}) {
  return Catch::Generators::from_range(read_dataset(uri, options));
}

}  // namespace krino::testing::catch2

#define KRINO_CATCH_EVAL_(fail, ...)                                                                 \
  do {                                                                                                 \
    const ::krino::testing::EvalCheck krino_eval_check_ = ::krino::testing::check_eval(__VA_ARGS__); \
    if (!krino_eval_check_.passed()) fail(krino_eval_check_.message());                                \
  } while (false)

#define CHECK_EVAL(...) KRINO_CATCH_EVAL_(FAIL_CHECK, __VA_ARGS__)
#define REQUIRE_EVAL(...) KRINO_CATCH_EVAL_(FAIL, __VA_ARGS__)
