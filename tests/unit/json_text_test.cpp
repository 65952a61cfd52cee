// The SDK's compact JSON writer must escape exactly as Boost.JSON does (the bytes reach reports and
// plugins), and write doubles readably. Its eight-bytes-at-a-time scan is checked at every alignment.
#include <krino/json_text.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
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

BOOST_AUTO_TEST_CASE(doubles_are_written_shortest_and_read_back_bit_for_bit) {
  const auto written = [](double d) {
    std::string out;
    krino::json::append_double(out, d);
    return out;
  };
  BOOST_TEST(written(-104250770357852536832.0) == "-1.0425077035785254e+20");  // not -104250770357852536832.0
  BOOST_TEST(written(100.0) == "100.0");
  BOOST_TEST(written(10000.0) == "10000.0");
  BOOST_TEST(written(123456789012345680000.0) == "1.2345678901234568e+20");
  BOOST_TEST(written(1e16) == "1e+16");
  BOOST_TEST(written(123456789012345.0) == "123456789012345.0");
  BOOST_TEST(written(-0.0) == "-0.0");
  BOOST_TEST(written(0.0) == "0.0");  // these two skip the shortest-form search: same text as it gives
  BOOST_TEST(written(1.0) == "1.0");
  BOOST_TEST(written(std::nextafter(1.0, 2.0)) == "1.0000000000000002");
  BOOST_TEST(written(std::nextafter(1.0, 0.0)) == "0.9999999999999999");
  BOOST_TEST(written(5e-324) == "5e-324");
  BOOST_TEST(written(3e34) == "3e+34");
  std::mt19937_64 rng(3);
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t bits = rng();
    double d;
    std::memcpy(&d, &bits, sizeof d);
    if (!std::isfinite(d)) continue;
    const std::string text = written(d);
    double back = 0;
    std::from_chars(text.data(), text.data() + text.size(), back);
    std::uint64_t back_bits;
    std::memcpy(&back_bits, &back, sizeof back);
    BOOST_REQUIRE_MESSAGE(back_bits == bits, text);
  }
}

BOOST_AUTO_TEST_SUITE_END()

// The writer gives the bytes append_compact_json gives for the same members built as a DOM: the
// evaluators that write their metadata with it keep their results byte for byte.
BOOST_AUTO_TEST_CASE(the_compact_writer_writes_what_a_built_value_serializes_to) {
  json::object built;
  built["name"] = "caf\xC3\xA9 \"quoted\"\n";
  built["count"] = std::uint64_t{18446744073709551615ULL};
  built["negative"] = std::int64_t{-3};
  built["ratio"] = 0.1 + 0.2;
  built["whole"] = 5.0;
  built["yes"] = true;
  built["no"] = false;
  built["nothing"] = nullptr;
  built["empty_list"] = json::array();
  built["empty_object"] = json::object();
  built["pairs"] = json::parse(R"([{"actual":0,"tool":"a"},{"actual":1,"tool":"b"}])");
  built["nested"] = json::parse(R"({"deep":[[1,2],[],{"k":null}],"x":1e300})");

  std::string written;
  krino::json::CompactWriter w(written);
  w.begin_object();
  w.key("name").string("caf\xC3\xA9 \"quoted\"\n");
  w.key("count").count(18446744073709551615ULL);
  w.key("negative").integer(-3);
  w.key("ratio").number(0.1 + 0.2);
  w.key("whole").number(5.0);
  w.key("yes").boolean(true).key("no").boolean(false).key("nothing").null();
  w.key("empty_list").begin_array().end_array();
  w.key("empty_object").begin_object().end_object();
  w.key("pairs").begin_array();
  for (std::uint64_t i = 0; i < 2; ++i) w.begin_object().key("actual").count(i).key("tool").string(i == 0 ? "a" : "b").end_object();
  w.end_array();
  std::string nested;
  krino::json::CompactWriter(nested).begin_object().key("deep").value(json::parse("[[1,2],[],{\"k\":null}]")).key("x").number(1e300).end_object();
  w.key("nested").raw(nested);
  w.end_object();

  BOOST_TEST(written == krino::json::to_compact_json(built));
  BOOST_TEST(json::parse(written) == json::value(built));
}

BOOST_AUTO_TEST_CASE(the_compact_writer_separates_top_level_values_and_appends) {
  std::string out = "prefix:";
  krino::json::CompactWriter(out).begin_array().string("a").count(1).value(json::object{{"k", 2}}).end_array();
  BOOST_TEST(out == R"(prefix:["a",1,{"k":2}])");
}

// The word-at-a-time test of whether text needs an escape agrees with a byte-by-byte look at every
// length and position, the padded tail included (a NUL or a quote in the last byte, say).
BOOST_AUTO_TEST_CASE(the_escape_test_agrees_with_a_byte_by_byte_look) {
  const auto needs = [](std::string_view text) {
    for (const unsigned char c : text)
      if (c < 0x20 || c == '"' || c == '\\') return true;
    return false;
  };
  const char specials[] = {'"', '\\', '\0', '\x01', '\x1f', '\n'};
  const char plains[] = {' ', 'a', '\x7f', '\xc3', '\xff', '~'};
  for (std::size_t size = 0; size <= 40; ++size) {
    for (const char plain : plains) {
      std::string text(size, plain);
      BOOST_REQUIRE(krino::json::detail::any_needs_escape(text) == needs(text));
      for (std::size_t at = 0; at < size; ++at) {
        for (const char special : specials) {
          std::string marked = text;
          marked[at] = special;
          BOOST_REQUIRE_MESSAGE(krino::json::detail::any_needs_escape(marked) == needs(marked), "size " << size << " at " << at);
        }
      }
    }
  }
}

// Keys and strings that need escapes, or are too long for the one-append path, are written as before.
BOOST_AUTO_TEST_CASE(the_compact_writer_escapes_keys_and_long_strings) {
  const std::string long_text(300, 'x');
  std::string written;
  krino::json::CompactWriter(written)
      .begin_object()
      .key("plain").string("a\"b")
      .key("quo\"te").string(long_text)
      .key(long_text).count(1)
      .key("").string("")
      .end_object();
  json::object built;
  built["plain"] = "a\"b";
  built["quo\"te"] = long_text;
  built[long_text] = 1;
  built[""] = "";
  BOOST_TEST(written == krino::json::to_compact_json(built));
}
