// Helpers for the OpenJudge grader tests: configurations and test cases from JSON text, running an
// evaluator, and checking the krino::Error a call throws.
#ifndef KRINO_TESTS_PLUGINS_AGENT_OPENJUDGE_TEST_SUPPORT_HPP
#define KRINO_TESTS_PLUGINS_AGENT_OPENJUDGE_TEST_SUPPORT_HPP

#include <krino/plugin.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <string>
#include <string_view>

namespace krino::agent::openjudge::testing {

inline Config config(std::string_view text) { return Config(boost::json::parse(text).as_object()); }

// A krino.testcase/1 document with the given actualOutputs and expectedOutputs objects.
inline boost::json::object test_case(std::string_view actual_outputs, std::string_view expected_outputs = "{}") {
  boost::json::object document;
  document["inputs"] = boost::json::object();
  document["actualOutputs"] = boost::json::parse(actual_outputs);
  document["expectedOutputs"] = boost::json::parse(expected_outputs);
  document["metadata"] = boost::json::object();
  return document;
}

// A test case whose actualOutputs.conversation is the given message list.
inline boost::json::object conversation_case(std::string_view messages, std::string_view expected_outputs = "{}") {
  return test_case("{\"conversation\": " + std::string(messages) + "}", expected_outputs);
}

template <class Evaluator>
EvalResult evaluate(const Evaluator& evaluator, const boost::json::object& document) {
  const TestCase tc(document);
  CallContext ctx(nullptr, nullptr);
  return evaluator.evaluate(tc, ctx);
}

// A predicate for BOOST_CHECK_EXCEPTION: INVALID_ARGUMENT with a message containing `part`.
struct InvalidArgument {
  std::string part;
  bool operator()(const Error& e) const {
    BOOST_TEST_INFO("message: " << e.what());
    return e.code() == KRINO_INVALID_ARGUMENT && std::string(e.what()).find(part) != std::string::npos;
  }
};
inline InvalidArgument invalid(std::string part) { return InvalidArgument{std::move(part)}; }

}  // namespace krino::agent::openjudge::testing

#endif  // KRINO_TESTS_PLUGINS_AGENT_OPENJUDGE_TEST_SUPPORT_HPP
