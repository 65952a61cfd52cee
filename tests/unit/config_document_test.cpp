#include "krino/core/common/error.hpp"
#include "krino/core/experiment/config_document.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <limits>
#include <string>

using namespace krino::core;
namespace json = boost::json;

BOOST_AUTO_TEST_SUITE(config_document)

BOOST_AUTO_TEST_CASE(yaml_scalars_follow_the_core_schema) {
  json::value v = parse_config_text(R"(
a: 3
b: 2.5
c: true
d: ~
e: hello
f: "3"
g: '1.0'
h: -7
i: 1e3
j: .inf
)", "t.yaml");
  const auto& o = v.as_object();
  BOOST_TEST(o.at("a").as_int64() == 3);
  BOOST_TEST(o.at("b").as_double() == 2.5);
  BOOST_TEST(o.at("c").as_bool() == true);
  BOOST_TEST(o.at("d").is_null());
  BOOST_TEST(o.at("e").as_string() == "hello");
  BOOST_TEST(o.at("f").as_string() == "3");  // quoted stays a string
  BOOST_TEST(o.at("g").as_string() == "1.0");
  BOOST_TEST(o.at("h").as_int64() == -7);
  BOOST_TEST(o.at("i").as_double() == 1000.0);
  BOOST_TEST(o.at("j").as_string() == ".inf");  // never a non-finite number
}

BOOST_AUTO_TEST_CASE(json_is_accepted_as_yaml) {
  json::value v = parse_config_text(R"({"name": "x", "runs": 2, "list": [1, "a", null]})", "t.json");
  BOOST_TEST(v.as_object().at("runs").as_int64() == 2);
  BOOST_TEST(v.as_object().at("list").as_array().size() == 3u);
}

BOOST_AUTO_TEST_CASE(syntax_errors_name_file_and_line) {
  try {
    parse_config_text("a: 1\nb: [1, 2\n", "broken.yaml");
    BOOST_FAIL("expected an error");
  } catch (const KrinoError& e) {
    BOOST_TEST((e.kind() == ErrorKind::configuration));
    BOOST_TEST(std::string(e.what()).find("broken.yaml:") == 0);
  }
}

BOOST_AUTO_TEST_CASE(duplicate_keys_are_rejected) {
  BOOST_CHECK_THROW(parse_config_text("a: 1\na: 2\n", "dup.yaml"), KrinoError);
}

BOOST_AUTO_TEST_CASE(overrides_set_nested_values_and_types) {
  json::value doc = parse_config_text("runs: 1\nevaluators:\n  - use: exact_match\n", "t.yaml");
  apply_override(doc, "runs=3");
  apply_override(doc, "evaluators.0.threshold=0.5");
  apply_override(doc, "dataset.uri=data.jsonl");
  apply_override(doc, "reporters=[console, json]");
  apply_override(doc, "name=has=equals");
  const auto& o = doc.as_object();
  BOOST_TEST(o.at("runs").as_int64() == 3);
  BOOST_TEST(o.at("evaluators").as_array()[0].as_object().at("threshold").as_double() == 0.5);
  BOOST_TEST(o.at("dataset").as_object().at("uri").as_string() == "data.jsonl");
  BOOST_TEST(o.at("reporters").as_array().size() == 2u);
  BOOST_TEST(o.at("name").as_string() == "has=equals");
}

BOOST_AUTO_TEST_CASE(overrides_reject_bad_input) {
  json::value doc = parse_config_text("evaluators: [a]\n", "t.yaml");
  BOOST_CHECK_THROW(apply_override(doc, "novalue"), KrinoError);
  BOOST_CHECK_THROW(apply_override(doc, "=1"), KrinoError);
  BOOST_CHECK_THROW(apply_override(doc, "evaluators.5.x=1"), KrinoError);
  BOOST_CHECK_THROW(apply_override(doc, "evaluators.x.y=1"), KrinoError);
}

// The message of the configuration error `text` raises, or "" when it parses.
std::string config_error_of(const std::string& text, const std::string& source = "hostile.yaml") {
  try {
    parse_config_text(text, source);
  } catch (const KrinoError& e) {
    BOOST_TEST((e.kind() == ErrorKind::configuration));
    return e.what();
  }
  return "";
}

BOOST_AUTO_TEST_CASE(a_self_referencing_alias_is_an_error_not_a_crash) {
  // Was SIGSEGV: converting the cyclic node graph recursed without end.
  const std::string message = config_error_of("name: x\nmetadata: &a {x: *a}\n");
  BOOST_TEST(message.find("hostile.yaml:2:") == 0, message);
  BOOST_TEST(message.find("contains it") != std::string::npos, message);
  BOOST_TEST(config_error_of("a: &l [1, *l]\n").find("hostile.yaml:1:") == 0);
}

BOOST_AUTO_TEST_CASE(aliases_may_be_repeated_side_by_side) {
  json::value v = parse_config_text("base: &b {k: 1}\nx: *b\ny: [*b, *b]\n", "t.yaml");
  BOOST_TEST(v.at("y").as_array()[1].at("k").as_int64() == 1);
}

BOOST_AUTO_TEST_CASE(an_alias_bomb_is_refused_within_the_limits) {
  // "Billion laughs": ten levels of ten aliases each stand for 10^10 strings. Was 4 GiB of memory,
  // then std::bad_alloc.
  std::string yaml = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int level = 1; level <= 10; ++level) {
    const std::string previous = "*l" + std::to_string(level - 1);
    yaml += "l" + std::to_string(level) + ": &l" + std::to_string(level) + " [";
    for (int i = 0; i < 10; ++i) yaml += (i > 0 ? ", " : "") + previous;
    yaml += "]\n";
  }
  const std::string message = config_error_of(yaml);
  BOOST_TEST(message.find("hostile.yaml:") == 0, message);
  BOOST_TEST(message.find("100000 values once its aliases are expanded") != std::string::npos, message);
}

BOOST_AUTO_TEST_CASE(an_alias_bomb_of_long_strings_is_refused_by_its_text_size) {
  std::string yaml = "a: &a \"" + std::string(1 << 20, 'x') + "\"\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n";
  yaml += "c: [*b, *b, *b]\n";  // 32 copies of 1 MiB
  const std::string message = config_error_of(yaml);
  BOOST_TEST(message.find("16 MiB of text") != std::string::npos, message);
}

BOOST_AUTO_TEST_CASE(nesting_is_limited) {
  const std::string deep = std::string(150, '[') + std::string(150, ']');
  const std::string message = config_error_of("a: " + deep + "\n");
  BOOST_TEST(message.find("nested more than 100 levels") != std::string::npos, message);
  BOOST_TEST(config_error_of("a: " + std::string(90, '[') + std::string(90, ']') + "\n").empty());
}

BOOST_AUTO_TEST_CASE(a_scalar_of_thirty_thousand_digits_does_not_crash) {
  // Was a stack overflow in a recursive std::regex.
  const std::string digits(30000, '7');
  json::value v = parse_config_text("a: " + digits + "\nb: 0." + digits + "\nc: 1" + digits + "e-30000\n", "t.yaml");
  BOOST_TEST(v.at("a").as_string() == digits);  // beyond the range of a double: the text as written
  BOOST_TEST(v.at("b").as_double() == 0.7777777777777778);
  BOOST_TEST(v.at("c").as_double() == 1.7777777777777777);
  json::value doc = parse_config_text("{}", "t.yaml");
  apply_override(doc, "metadata.big=" + digits + "x");
  BOOST_TEST(doc.at("metadata").at("big").as_string() == digits + "x");
  apply_override(doc, "metadata.huge=1e" + digits);  // out of range: the text as written
  BOOST_TEST(doc.at("metadata").at("huge").as_string() == "1e" + digits);
}

BOOST_AUTO_TEST_CASE(plain_scalars_follow_the_core_schema_grammar) {
  json::value v = parse_config_text("a: +5\nb: -0.5e+2\nc: .5\nd: 5.\ne: '-'\nf: 1e\ng: 1.2.3\nh: -.e1\ni: 0x1F\n", "t.yaml");
  BOOST_TEST(v.at("a").as_int64() == 5);
  BOOST_TEST(v.at("b").as_double() == -50.0);
  BOOST_TEST(v.at("c").as_double() == 0.5);
  BOOST_TEST(v.at("d").as_double() == 5.0);
  BOOST_TEST(v.at("e").as_string() == "-");
  BOOST_TEST(v.at("f").as_string() == "1e");
  BOOST_TEST(v.at("g").as_string() == "1.2.3");
  BOOST_TEST(v.at("h").as_string() == "-.e1");
  BOOST_TEST(v.at("i").as_string() == "0x1F");
}

BOOST_AUTO_TEST_CASE(integers_use_all_64_bits) {
  json::value v = parse_config_text("max: 18446744073709551615\nmin: -9223372036854775808\nover: 18446744073709551616\n", "t.yaml");
  BOOST_TEST(v.at("max").as_uint64() == 18446744073709551615u);
  BOOST_TEST(v.at("min").as_int64() == std::numeric_limits<int64_t>::min());
  BOOST_TEST(v.at("over").as_double() == 18446744073709551616.0);
}

BOOST_AUTO_TEST_CASE(invalid_utf8_is_refused_with_file_line_and_column) {
  // Was accepted, and the run then failed in a reporter writing the name back out.
  std::string message = config_error_of("name: ok\nmetadata:\n  team: caf\xE9\n", "exp.yaml");
  BOOST_TEST(message.find("exp.yaml:3:12: not valid UTF-8 (byte 0xE9)") == 0, message);
  message = config_error_of("name: \"\xC0\xAF\"\n", "exp.yaml");  // an overlong '/'
  BOOST_TEST(message.find("exp.yaml:1:8:") == 0, message);
  json::value doc = parse_config_text("{}", "t.yaml");
  BOOST_CHECK_THROW(apply_override(doc, "name=\xFF"), KrinoError);
  BOOST_TEST(parse_config_text("name: caf\xC3\xA9\n", "t.yaml").at("name").as_string() == "caf\xC3\xA9");
}

BOOST_AUTO_TEST_SUITE_END()
