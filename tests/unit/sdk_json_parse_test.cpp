// krino::json::parse reads every number exactly (Boost.JSON 1.81's own parse does not), builds the
// same values as boost::json::parse otherwise, and reads a number cut across buffers the same way.
#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

namespace {

std::uint64_t bits_of(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

double from_text(const std::string& text) {
  double d = 0;
  std::from_chars(text.data(), text.data() + text.size(), d);
  return d;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sdk_json_parse)

BOOST_AUTO_TEST_CASE(doubles_boost_gets_wrong_read_exactly) {
  // Each of these comes out one unit in the last place off through boost::json::parse 1.81.
  for (const char* text : {"3e+34", "7.5e-137", "-937738.1598100325"}) {
    const boost::json::value v = krino::json::parse(text);
    BOOST_REQUIRE(v.is_double());
    BOOST_CHECK_EQUAL(bits_of(v.get_double()), bits_of(from_text(text)));
  }
}

BOOST_AUTO_TEST_CASE(random_doubles_round_trip_bit_for_bit) {
  std::mt19937_64 rng(14);
  std::string doc = "[";
  std::vector<double> expected;
  for (int i = 0; i < 20000; ++i) {
    std::uint64_t b = rng();
    double d;
    std::memcpy(&d, &b, sizeof d);
    if (!std::isfinite(d)) continue;
    expected.push_back(d);
    if (doc.size() > 1) doc += ',';
    char buffer[32];
    doc.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, d).ptr);
  }
  doc += ']';
  const boost::json::array parsed = krino::json::parse(doc).as_array();
  BOOST_REQUIRE_EQUAL(parsed.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    BOOST_REQUIRE_EQUAL(bits_of(parsed[i].to_number<double>()), bits_of(expected[i]));
}

BOOST_AUTO_TEST_CASE(plain_decimals_read_exactly_on_the_fast_path) {
  // Up to 15 significant digits and no exponent, Boost's own reading is kept: it must be exact.
  std::mt19937_64 rng(15);
  for (int i = 0; i < 200000; ++i) {
    const int digits = 1 + static_cast<int>(rng() % 15);
    const int point = static_cast<int>(rng() % static_cast<unsigned>(digits + 8));
    std::string text = (rng() % 2) ? "-" : "";
    std::string body;
    for (int k = 0; k < digits; ++k) body += static_cast<char>('0' + rng() % 10);
    if (point < digits) body.insert(static_cast<std::size_t>(digits - point), ".");
    else body = "0." + std::string(static_cast<std::size_t>(point - digits), '0') + body;
    while (body.size() > 1 && body[0] == '0' && body[1] != '.') body.erase(0, 1);
    if (body.back() == '.') body += '0';
    text += body;
    const boost::json::value v = krino::json::parse(text);
    BOOST_REQUIRE_MESSAGE(bits_of(v.to_number<double>()) == bits_of(from_text(text)), text);
  }
}

BOOST_AUTO_TEST_CASE(edges) {
  BOOST_CHECK_EQUAL(krino::json::parse("-0").get_int64(), 0);
  BOOST_CHECK_EQUAL(bits_of(krino::json::parse("-0.0").get_double()), bits_of(-0.0));
  BOOST_CHECK(krino::json::parse("0").is_int64());
  BOOST_CHECK_EQUAL(krino::json::parse("5e-324").get_double(), std::numeric_limits<double>::denorm_min());
  BOOST_CHECK_EQUAL(bits_of(krino::json::parse("-2e-324").get_double()), bits_of(-0.0));
  BOOST_CHECK_EQUAL(krino::json::parse("1e400").get_double(), std::numeric_limits<double>::infinity());
  BOOST_CHECK_EQUAL(krino::json::parse("-1e400").get_double(), -std::numeric_limits<double>::infinity());
  BOOST_CHECK_EQUAL(krino::json::parse("1e308").get_double(), 1e308);
  BOOST_CHECK_EQUAL(krino::json::parse("9007199254740993").get_int64(), 9007199254740993);
  BOOST_CHECK_EQUAL(krino::json::parse("18446744073709551615").get_uint64(), 18446744073709551615ull);
  BOOST_CHECK_EQUAL(krino::json::parse("-9223372036854775808").get_int64(), std::numeric_limits<std::int64_t>::min());
  // Beyond 64 bits an integer is a double, the nearest one.
  BOOST_CHECK_EQUAL(krino::json::parse("123456789012345678901").get_double(), 123456789012345678901.0);
}

BOOST_AUTO_TEST_CASE(same_values_and_errors_as_boost_otherwise) {
  const std::string text = R"( {"a": [1, -2, 2.5, true, null, "x\u00e9"], "b": {"c": 18446744073709551615}} )";
  BOOST_CHECK_EQUAL(krino::json::parse(text), boost::json::parse(text));
  for (const char* bad : {"", "{", "[1,]", "{\"a\":1} x", "01", "nan"}) {
    boost::json::error_code ec;
    krino::json::parse(bad, ec);
    BOOST_CHECK_MESSAGE(ec, bad);
  }
  BOOST_CHECK_THROW(krino::json::parse("{"), boost::system::system_error);
  boost::json::parse_options options;
  options.max_depth = 2;
  boost::json::error_code ec;
  krino::json::parse("[[[1]]]", ec, {}, options);
  BOOST_CHECK(ec);
}

BOOST_AUTO_TEST_CASE(a_number_cut_between_buffers_reads_the_same) {
  const std::string text = "[-937738.1598100325, 7.5e-137, -0.0]";
  for (std::size_t cut = 1; cut < text.size(); ++cut) {
    krino::json::ExactParser parser;
    boost::json::error_code ec;
    parser.write_some(text.data(), cut, ec, true);
    BOOST_REQUIRE(!ec);
    parser.write_some(text.data() + cut, text.size() - cut, ec, false);
    BOOST_REQUIRE(!ec);
    const boost::json::array a = parser.release().as_array();
    BOOST_CHECK_EQUAL(bits_of(a[0].get_double()), bits_of(-937738.1598100325));
    BOOST_CHECK_EQUAL(bits_of(a[1].get_double()), bits_of(7.5e-137));
    BOOST_CHECK_EQUAL(bits_of(a[2].get_double()), bits_of(-0.0));
  }
}

BOOST_AUTO_TEST_CASE(checks_name_the_problem) {
  krino::json::ExactParser parser({}, {}, krino::json::ParseChecks{true, false});
  boost::json::error_code ec;
  const std::string text = R"({"a": {"b": 1, "b": 2}})";
  parser.write_some(text.data(), text.size(), ec);
  BOOST_CHECK(ec);
  BOOST_CHECK_EQUAL(parser.problem(), "duplicate object key \"b\"");
}

BOOST_AUTO_TEST_CASE(exact_compact_json_keeps_every_digit_of_an_integer) {
  BOOST_CHECK_EQUAL(*krino::json::exact_compact_json(" [ 123456789012345678901 , 1E2, -0, 3e+34, {\"a b\" : \"\\u00e9\"} ] "),
                    "[123456789012345678901,100.0,0,3e+34,{\"a b\":\"\u00e9\"}]");
  // Otherwise what to_compact_json(parse(text)) writes.
  const std::string text = R"({"a":[1,-2,2.5,true,null,"x\n"],"b":{"c":18446744073709551615,"d":1.0,"e":{}},"f":[]})";
  BOOST_CHECK_EQUAL(*krino::json::exact_compact_json(text), krino::json::to_compact_json(krino::json::parse(text)));
  BOOST_CHECK(!krino::json::exact_compact_json("[1,").has_value());
}

BOOST_AUTO_TEST_SUITE_END()
