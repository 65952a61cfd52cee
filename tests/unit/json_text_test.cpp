// The SDK's compact JSON writer must escape exactly as Boost.JSON does (the bytes reach reports and
// plugins), and write doubles readably. Its eight-bytes-at-a-time scan is checked at every alignment.
#include <krino/json_text.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <random>

namespace json = boost::json;

BOOST_AUTO_TEST_SUITE(json_text)

BOOST_AUTO_TEST_CASE(strings_escape_exactly_like_boost_json_at_every_alignment) {
  const std::string specials[] = {"\"", "\\", "\n", "\t", "\r", "\b", "\f", std::string(1, '\0'), "\x01", "\x1f",
                                  "/", "\x7f", "é", "\xe2\x82\xac", "a", "bcdefgh"};
  std::mt19937 rng(7);
  for (int trial = 0; trial < 3000; ++trial) {
    std::string text;
    const size_t pieces = rng() % 24;
    for (size_t i = 0; i < pieces; ++i) text += specials[rng() % std::size(specials)];
    std::string ours;
    krino::json::append_json_string(ours, text);
    BOOST_REQUIRE_EQUAL(ours, json::serialize(json::string(text)));
  }
}

BOOST_AUTO_TEST_CASE(long_clean_text_is_copied_whole) {
  std::string text(1000, 'x');
  text[997] = '"';
  std::string ours;
  krino::json::append_json_string(ours, text);
  BOOST_TEST(ours == json::serialize(json::string(text)));
}

BOOST_AUTO_TEST_CASE(documents_round_trip_and_doubles_read_well) {
  json::value v = json::parse(R"({"a":[1,-2,3.5,1e300,0.1,null,true,"x\ny"],"b":{"c":18446744073709551615,"d":1.0}})");
  std::string text = krino::json::to_compact_json(v);
  BOOST_TEST(json::parse(text) == v);
  BOOST_TEST(text.find("1.0}") != std::string::npos);
  BOOST_TEST(text.find("E0") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
