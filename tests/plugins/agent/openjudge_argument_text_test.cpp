// Arguments text parsed with floats read exactly as Python's json.loads() reads them.
#include "openjudge_argument_text.h"
#include "openjudge_python_repr.h"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>
#include <string_view>

using krino::agent::openjudge::parse_argument_text;
using krino::agent::openjudge::python_repr;

namespace {
std::string openjudge_argument_text_repr_of(std::string_view text) { return python_repr(*parse_argument_text(text)); }
}  // namespace

BOOST_AUTO_TEST_SUITE(openjudge_argument_text)

BOOST_AUTO_TEST_CASE(floats_are_correctly_rounded) {
  // Boost.JSON 1.81 alone reads these one unit in the last place off; CPython prints them back as written.
  BOOST_TEST(openjudge_argument_text_repr_of(R"({"a": 2.5e-300})") == "{'a': 2.5e-300}");
  BOOST_TEST(openjudge_argument_text_repr_of(R"({"a": [63440.493160371436, -2.3567736845445426e+240]})") ==
             "{'a': [63440.493160371436, -2.3567736845445426e+240]}");
  BOOST_TEST(parse_argument_text("1.9015657400796622e-144")->as_double() == 1.9015657400796622e-144);
}

BOOST_AUTO_TEST_CASE(strings_and_integers_are_left_alone) {
  BOOST_TEST(openjudge_argument_text_repr_of(R"({"s": "1.5 and \"2e5\"", "n": -12, "big": 18446744073709551615, "f": 1E2})") ==
             "{'s': '1.5 and \"2e5\"', 'n': -12, 'big': 18446744073709551615, 'f': 100.0}");
}

BOOST_AUTO_TEST_CASE(invalid_text_has_no_value) {
  BOOST_TEST(!parse_argument_text("{oops").has_value());
  BOOST_TEST(!parse_argument_text("").has_value());
  BOOST_TEST(parse_argument_text(" [1, 2] ")->is_array());
}

// Python's json.loads() accepts NaN, Infinity and -Infinity, and reads numbers beyond the double
// range as infinities; str() then prints nan, inf, -inf.
BOOST_AUTO_TEST_CASE(python_constants_read_as_python_reads_them) {
  BOOST_TEST(openjudge_argument_text_repr_of(R"({"a": NaN, "b": Infinity, "c": -Infinity, "d": [NaN,1.5]})") ==
             "{'a': nan, 'b': inf, 'c': -inf, 'd': [nan, 1.5]}");
  BOOST_TEST(openjudge_argument_text_repr_of(R"({"big": 1e400, "small": -1e400, "tiny": 1e-400})") ==
             "{'big': inf, 'small': -inf, 'tiny': 0.0}");
  BOOST_TEST(std::isnan(parse_argument_text("NaN")->as_double()));
  // Only outside strings, and only as whole tokens: Python refuses the others.
  BOOST_TEST(openjudge_argument_text_repr_of(R"({"s": "NaN Infinity"})") == "{'s': 'NaN Infinity'}");
  for (const char* refused : {"-NaN", "[NaNx]", "nan", "[+Infinity]", "[Infinity1]", "{\"a\": NaN"})
    BOOST_TEST(!parse_argument_text(refused).has_value(), refused);
}

BOOST_AUTO_TEST_SUITE_END()
