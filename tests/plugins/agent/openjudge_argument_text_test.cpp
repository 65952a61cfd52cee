// Arguments text parsed with floats read exactly as Python's json.loads() reads them.
#include "openjudge_argument_text.h"
#include "openjudge_python_repr.h"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

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

BOOST_AUTO_TEST_SUITE_END()
