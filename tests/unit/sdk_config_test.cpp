// krino::Config and the schema's defaults (krino/plugin/config.hpp, krino/plugin/schema_defaults.hpp):
// defaults come from the component's schema; has() and find() still say what the user set; the
// getters with a fallback behave as they always did.
#include <krino/evaluator_options.hpp>
#include <krino/plugin.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

namespace {

constexpr const char* kSdkConfigSchema = R"({
  "type": "object",
  "properties": {
    "name": {"type": "string", "default": "counter"},
    "threshold": {"type": "number", "default": 0.5},
    "max_words": {"type": "integer", "default": 100},
    "ignore_case": {"type": "boolean", "default": true},
    "stop_words": {"type": "array", "items": {"type": "string"}, "default": ["a", "the"]},
    "mode": {"type": "string", "default": "all"},
    "judge": {"type": ["object", "null"], "default": null},
    "pattern": {"type": "string"}
  },
  "additionalProperties": false
})";

krino::Config sdk_config_of(const char* json) { return krino::Config(boost::json::parse(json).as_object(), kSdkConfigSchema); }

}  // namespace

BOOST_AUTO_TEST_SUITE(sdk_config)

BOOST_AUTO_TEST_CASE(schema_defaults_are_the_top_level_defaults_without_null) {
  const boost::json::object defaults = krino::schema_defaults(std::string_view(kSdkConfigSchema));
  BOOST_TEST(defaults.size() == 6u);
  BOOST_TEST(defaults.at("max_words").as_int64() == 100);
  BOOST_TEST(!defaults.contains("judge"));
  BOOST_TEST(!defaults.contains("pattern"));
  BOOST_TEST(krino::schema_defaults(std::string_view("not json")).empty());
}

BOOST_AUTO_TEST_CASE(getters_without_fallback_take_the_schema_default) {
  const krino::Config c = sdk_config_of(R"({"max_words": 7, "mode": null})");
  BOOST_TEST(c.get_int("max_words") == 7);
  BOOST_TEST(c.get_bool("ignore_case"));
  BOOST_TEST(c.get_double("threshold") == 0.5);
  BOOST_TEST(c.get_string("name") == "counter");
  BOOST_TEST(c.get_string("mode") == "all");  // null is absent
  BOOST_TEST(c.get_strings("stop_words").size() == 2u);
  BOOST_TEST(c.get_string("pattern").empty());
  BOOST_CHECK_THROW(c.get_int("pattern"), krino::Error);
  // has() and find() say what the user set.
  BOOST_TEST(c.has("max_words"));
  BOOST_TEST(!c.has("ignore_case"));
  BOOST_TEST(c.find_or_default("ignore_case") != nullptr);
}

BOOST_AUTO_TEST_CASE(getters_with_a_fallback_ignore_the_schema) {
  const krino::Config c = sdk_config_of("{}");
  BOOST_TEST(c.get_int("max_words", 3) == 3);
  BOOST_TEST(!c.get_bool("ignore_case", false));
  BOOST_TEST(c.get_string("name", "other") == "other");
}

BOOST_AUTO_TEST_CASE(common_options_and_choices_from_the_schema) {
  krino::Config c(boost::json::object{});
  BOOST_CHECK_THROW(krino::read_common_options(c), krino::Error);  // no schema, no default
  const krino::CommonOptions common = krino::read_common_options(krino::apply_schema(c, kSdkConfigSchema));
  BOOST_TEST(common.name == "counter");
  BOOST_TEST(common.threshold == 0.5);
  BOOST_TEST(krino::read_choice(c, "mode", {"all", "any"}) == "all");
  BOOST_TEST(krino::read_output_key(c) == "output");  // the schema gives none
}

BOOST_AUTO_TEST_SUITE_END()
