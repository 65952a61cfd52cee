// Shared helpers for the text plugin tests: building configurations and test cases from JSON
// text, running an evaluator, and checking the krino::Error a call throws.
#ifndef KRINO_TESTS_PLUGINS_TEXT_TEXT_TEST_SUPPORT_HPP
#define KRINO_TESTS_PLUGINS_TEXT_TEXT_TEST_SUPPORT_HPP

#include <krino/plugin.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <string>
#include <string_view>

namespace krino::text::testing {

inline Config config(std::string_view json) { return Config(boost::json::parse(json).as_object()); }

// A krino.testcase/1 document with the given actualOutputs and expectedOutputs objects.
inline boost::json::object test_case(std::string_view actual_outputs, std::string_view expected_outputs = "{}") {
  boost::json::object document;
  document["inputs"] = boost::json::object();
  document["actualOutputs"] = boost::json::parse(actual_outputs);
  document["expectedOutputs"] = boost::json::parse(expected_outputs);
  document["metadata"] = boost::json::object();
  return document;
}

template <class Evaluator>
EvalResult evaluate(const Evaluator& evaluator, const boost::json::object& document) {
  const TestCase tc(document);
  CallContext ctx(nullptr, nullptr);
  return evaluator.evaluate(tc, ctx);
}

template <class Evaluator>
EvalResult evaluate(const Evaluator& evaluator, std::string_view actual_outputs, std::string_view expected_outputs = "{}") {
  return evaluate(evaluator, test_case(actual_outputs, expected_outputs));
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

}  // namespace krino::text::testing

#endif  // KRINO_TESTS_PLUGINS_TEXT_TEXT_TEST_SUPPORT_HPP
