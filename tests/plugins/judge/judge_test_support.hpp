// Helpers for the judge plugin tests: the scripted judge of tests/support/scripted_judge_host.hpp,
// and running an evaluator class through its C ABI trampolines against it.
#ifndef KRINO_TESTS_PLUGINS_JUDGE_JUDGE_TEST_SUPPORT_HPP
#define KRINO_TESTS_PLUGINS_JUDGE_JUDGE_TEST_SUPPORT_HPP

#include "evaluator_abi_call.hpp"
#include "scripted_judge_host.hpp"

#include <krino/plugin.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace krino::judge::testing {

using krino::test::ScriptedJudge;

// Create, evaluate `test_case` (JSON text), destroy: through T's trampolines with the judge as host.
template <class T>
krino::test::AbiOutcome run(const ScriptedJudge& judge, const std::string& config, const std::string& test_case) {
  return krino::test::evaluate_with_vtable(krino::detail::EvaluatorTrampolines<T>::vtable(), judge.host(), config,
                                           test_case);
}

// The krino.evalresult/1 of a successful outcome.
inline boost::json::object result_of(const krino::test::AbiOutcome& outcome) {
  BOOST_TEST_INFO("error: " << outcome.error);
  BOOST_TEST_REQUIRE(outcome.status == KRINO_OK);
  return boost::json::parse(outcome.result).as_object();
}

inline double score_of(const boost::json::object& result) { return result.at("score").to_number<double>(); }

inline bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

}  // namespace krino::judge::testing

#endif  // KRINO_TESTS_PLUGINS_JUDGE_JUDGE_TEST_SUPPORT_HPP
