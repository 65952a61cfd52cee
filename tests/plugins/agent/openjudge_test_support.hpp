// Helpers for the OpenJudge grader tests: configurations and test cases from JSON text, running an
// evaluator, and checking the krino::Error a call throws.
#ifndef KRINO_TESTS_PLUGINS_AGENT_OPENJUDGE_TEST_SUPPORT_HPP
#define KRINO_TESTS_PLUGINS_AGENT_OPENJUDGE_TEST_SUPPORT_HPP

#include "agent_test_support.hpp"

#include <boost/json.hpp>

#include <string>
#include <string_view>

namespace krino::agent::openjudge::testing {

// The agent plugin's helpers, so a file that uses both namespaces sees one of each.
using krino::agent::testing::config;
using krino::agent::testing::evaluate;
using krino::agent::testing::invalid;
using krino::agent::testing::test_case;

// A test case whose actualOutputs.conversation is the given message list.
inline boost::json::object conversation_case(std::string_view messages, std::string_view expected_outputs = "{}") {
  return test_case("{\"conversation\": " + std::string(messages) + "}", expected_outputs);
}

}  // namespace krino::agent::openjudge::testing

#endif  // KRINO_TESTS_PLUGINS_AGENT_OPENJUDGE_TEST_SUPPORT_HPP
