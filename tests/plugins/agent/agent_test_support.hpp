// Shared helpers for the agent plugin tests: JSON from text, test cases, running an evaluator,
// and checking the krino::Error a call throws.
#ifndef KRINO_TESTS_PLUGINS_AGENT_AGENT_TEST_SUPPORT_HPP
#define KRINO_TESTS_PLUGINS_AGENT_AGENT_TEST_SUPPORT_HPP

#include <krino/plugin.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <string>
#include <string_view>
#include <utility>

namespace krino::agent::testing {

inline boost::json::value json(std::string_view text) { return boost::json::parse(text); }
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

// Test case whose actual and expected toolCalls are the given JSON lists.
inline boost::json::object calls_case(std::string_view actual, std::string_view expected) {
  return test_case("{\"toolCalls\":" + std::string(actual) + "}", "{\"toolCalls\":" + std::string(expected) + "}");
}

template <class Evaluator>
EvalResult evaluate(const Evaluator& evaluator, const boost::json::object& document) {
  const TestCase tc(document);
  CallContext ctx(nullptr, nullptr);
  return evaluator.evaluate(tc, ctx);
}

// A predicate for BOOST_CHECK_EXCEPTION: a krino::Error with `code` whose message contains `part`.
struct ErrorIs {
  krino_status code;
  std::string part;
  bool operator()(const Error& e) const {
    BOOST_TEST_INFO("message: " << e.what());
    BOOST_TEST(e.code() == code);
    BOOST_TEST(std::string(e.what()).find(part) != std::string::npos);
    return e.code() == code && std::string(e.what()).find(part) != std::string::npos;
  }
};

inline ErrorIs invalid(std::string part) { return ErrorIs{KRINO_INVALID_ARGUMENT, std::move(part)}; }

}  // namespace krino::agent::testing

#endif  // KRINO_TESTS_PLUGINS_AGENT_AGENT_TEST_SUPPORT_HPP
