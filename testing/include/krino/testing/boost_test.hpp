#pragma once
// Boost.Test adapters (header-only over libkrino-testing; include after <boost/test/unit_test.hpp>).
//
//   KRINO_CHECK_EVAL(test_case, exact_match);          // an error, the test goes on
//   KRINO_REQUIRE_EVAL(test_case, exact_match, judge); // a fatal error, the test stops
//
// A miss is logged with exactly failure_message()'s text.
//
// Data-driven test cases, one per example:
//
//   BOOST_DATA_TEST_CASE(answers, krino::testing::boost_test::dataset("capitals.jsonl"), example) { ... }
//
// Boost.Test builds the samples while it registers tests, before main runs; a dataset that cannot be
// read yields one sample whose accessors throw the reason, which fails that test case.
#include "krino/testing/eval_check.hpp"
#include "krino/testing/evaluators.hpp"
#include "krino/testing/example.hpp"

#include <boost/test/data/monomorphic.hpp>
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

namespace krino::testing::boost_test {

inline std::vector<Example> dataset(const std::string& uri, const LoadOptions& options = {}) {
  return read_dataset(uri, options);
}

}  // namespace krino::testing::boost_test

#define KRINO_BOOST_EVAL_(message_tool, test_case, ...)                                                      \
  do {                                                                                                          \
    const ::krino::testing::EvalCheck krino_eval_check_ = ::krino::testing::check_eval(test_case, __VA_ARGS__); \
    message_tool(krino_eval_check_.passed(), krino_eval_check_.message());                                      \
  } while (false)

#define KRINO_CHECK_EVAL(test_case, ...) KRINO_BOOST_EVAL_(BOOST_CHECK_MESSAGE, test_case, __VA_ARGS__)
#define KRINO_REQUIRE_EVAL(test_case, ...) KRINO_BOOST_EVAL_(BOOST_REQUIRE_MESSAGE, test_case, __VA_ARGS__)
