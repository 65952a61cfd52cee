#include "krino/core/common/error.hpp"
#include "krino/core/experiment/config_document.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

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

BOOST_AUTO_TEST_SUITE_END()
