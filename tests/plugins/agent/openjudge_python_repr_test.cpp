// The Python repr()/str() canonical form the OpenJudge graders compare tool calls by; expected
// strings are what CPython 3 prints for the value json.loads() builds.
#include "openjudge_python_repr.h"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <string>
#include <string_view>

using krino::agent::openjudge::python_float_repr;
using krino::agent::openjudge::python_repr;
using krino::agent::openjudge::python_str;
using krino::agent::openjudge::python_truthy;

namespace {
std::string openjudge_python_repr_repr_of(std::string_view json) { return python_repr(boost::json::parse(json)); }
}  // namespace

BOOST_AUTO_TEST_SUITE(openjudge_python_repr)

BOOST_AUTO_TEST_CASE(dict_with_string_value) { BOOST_TEST(openjudge_python_repr_repr_of(R"({"query": "python"})") == "{'query': 'python'}"); }

BOOST_AUTO_TEST_CASE(integers_and_floats_stay_distinct) {
  BOOST_TEST(openjudge_python_repr_repr_of("1") == "1");
  BOOST_TEST(openjudge_python_repr_repr_of("1.0") == "1.0");
  BOOST_TEST(openjudge_python_repr_repr_of("-7") == "-7");
  BOOST_TEST(openjudge_python_repr_repr_of("18446744073709551615") == "18446744073709551615");
  BOOST_TEST(openjudge_python_repr_repr_of("1e2") == "100.0");  // json.loads reads an exponent as a float
  BOOST_TEST(openjudge_python_repr_repr_of(R"({"a": 1, "b": 1.0})") == "{'a': 1, 'b': 1.0}");
}

BOOST_AUTO_TEST_CASE(floats_use_the_shortest_round_trip_digits_and_pythons_layout) {
  BOOST_TEST(python_float_repr(0.1) == "0.1");
  BOOST_TEST(python_float_repr(2.5) == "2.5");
  BOOST_TEST(python_float_repr(-0.0) == "-0.0");
  BOOST_TEST(python_float_repr(100.0) == "100.0");
  BOOST_TEST(python_float_repr(0.0001) == "0.0001");
  BOOST_TEST(python_float_repr(0.00012) == "0.00012");
  BOOST_TEST(python_float_repr(1e-5) == "1e-05");
  BOOST_TEST(python_float_repr(1e15) == "1000000000000000.0");
  BOOST_TEST(python_float_repr(1e16) == "1e+16");
  BOOST_TEST(python_float_repr(1.5e16) == "1.5e+16");
  BOOST_TEST(python_float_repr(123456789012345678.0) == "1.2345678901234568e+17");
  BOOST_TEST(python_float_repr(1.7976931348623157e308) == "1.7976931348623157e+308");
  BOOST_TEST(python_float_repr(5e-324) == "5e-324");
  BOOST_TEST(python_float_repr(0.1 + 0.2) == "0.30000000000000004");
}

BOOST_AUTO_TEST_CASE(booleans_and_null) {
  BOOST_TEST(openjudge_python_repr_repr_of("true") == "True");
  BOOST_TEST(openjudge_python_repr_repr_of("false") == "False");
  BOOST_TEST(openjudge_python_repr_repr_of("null") == "None");
}

BOOST_AUTO_TEST_CASE(nested_containers_keep_key_order) {
  BOOST_TEST(openjudge_python_repr_repr_of(R"({"b": [1, 2.0, {"c": null}], "a": true, "e": {}, "l": []})") ==
             "{'b': [1, 2.0, {'c': None}], 'a': True, 'e': {}, 'l': []}");
}

BOOST_AUTO_TEST_CASE(string_quotes_follow_python) {
  BOOST_TEST(openjudge_python_repr_repr_of(R"("")") == "''");
  BOOST_TEST(openjudge_python_repr_repr_of(R"("it's")") == "\"it's\"");
  BOOST_TEST(openjudge_python_repr_repr_of(R"("say \"hi\"")") == "'say \"hi\"'");
  BOOST_TEST(openjudge_python_repr_repr_of(R"("it's \"x\"")") == "'it\\'s \"x\"'");
  BOOST_TEST(openjudge_python_repr_repr_of(R"({"k": "it's"})") == "{'k': \"it's\"}");
}

BOOST_AUTO_TEST_CASE(string_escapes_follow_python) {
  BOOST_TEST(openjudge_python_repr_repr_of(R"("a\\b")") == "'a\\\\b'");
  BOOST_TEST(openjudge_python_repr_repr_of(R"("line\nnext\ttab\rret")") == "'line\\nnext\\ttab\\rret'");
  BOOST_TEST(openjudge_python_repr_repr_of(R"("\u0001\u007f")") == "'\\x01\\x7f'");
  BOOST_TEST(openjudge_python_repr_repr_of(R"("\u00a0\u2028")") == "'\\xa0\\u2028'");
  BOOST_TEST(openjudge_python_repr_repr_of(R"("café ☃ 😀")") == "'café ☃ 😀'");
  BOOST_TEST(openjudge_python_repr_repr_of(R"("\ud834\udd73\ufeff")") == "'\\U0001d173\\ufeff'");
}

BOOST_AUTO_TEST_CASE(str_leaves_strings_bare) {
  BOOST_TEST(python_str(boost::json::parse(R"("python")")) == "python");
  BOOST_TEST(python_str(boost::json::parse("1.0")) == "1.0");
  BOOST_TEST(python_str(boost::json::parse(R"(["a"])")) == "['a']");
}

BOOST_AUTO_TEST_CASE(truthiness_follows_python) {
  for (const char* falsy : {"null", "false", "0", "0.0", "\"\"", "[]", "{}"})
    BOOST_TEST(!python_truthy(boost::json::parse(falsy)), falsy);
  for (const char* truthy : {"true", "1", "-0.5", "\"0\"", "[0]", "{\"a\": null}"})
    BOOST_TEST(python_truthy(boost::json::parse(truthy)), truthy);
}

BOOST_AUTO_TEST_SUITE_END()
