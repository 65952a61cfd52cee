#include "krino/core/plugin/config_validator.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

using namespace krino::core;

BOOST_AUTO_TEST_SUITE(config_validator)

const char* kSchema = R"({
  "type": "object",
  "properties": {
    "match_mode": {"type": "string", "enum": ["strict", "lenient"]},
    "limit": {"type": "integer", "minimum": 1},
    "nested": {"type": "object", "properties": {"on": {"type": "boolean"}}}
  },
  "required": ["limit"],
  "additionalProperties": false
})";

BOOST_AUTO_TEST_CASE(valid_config_passes) {
  ConfigValidator v(kSchema);
  BOOST_TEST(v.validate(boost::json::parse(R"({"limit": 3, "match_mode": "lenient"})")).empty());
}

BOOST_AUTO_TEST_CASE(each_problem_names_its_path) {
  ConfigValidator v(kSchema);
  auto problems = v.validate(boost::json::parse(R"({"limit": 0, "match_mode": "loose", "typo": 1, "nested": {"on": 3}})"));
  std::string all;
  for (const auto& p : problems) all += p + "\n";
  BOOST_TEST_MESSAGE(all);
  BOOST_TEST(all.find("/limit") != std::string::npos);
  BOOST_TEST(all.find("/match_mode") != std::string::npos);
  BOOST_TEST(all.find("typo") != std::string::npos);
  BOOST_TEST(all.find("/nested/on") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(missing_required_option_is_reported) {
  ConfigValidator v(kSchema);
  auto problems = v.validate(boost::json::parse("{}"));
  BOOST_REQUIRE(!problems.empty());
  std::string all;
  for (const auto& p : problems) all += p;
  BOOST_TEST(all.find("limit") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(integer_type_is_strict) {
  ConfigValidator v(kSchema);
  BOOST_TEST(!v.validate(boost::json::parse(R"({"limit": 2.5})")).empty());
  BOOST_TEST(!v.validate(boost::json::parse(R"({"limit": "2"})")).empty());
}

BOOST_AUTO_TEST_CASE(unusable_schemas_are_refused) {
  BOOST_CHECK_THROW(ConfigValidator("{not json"), std::invalid_argument);
  BOOST_CHECK_THROW(ConfigValidator("[1,2]"), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
