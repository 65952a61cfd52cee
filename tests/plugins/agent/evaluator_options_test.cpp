#include <krino/evaluator_options.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <string>

namespace {

constexpr char kSchema[] = R"({"type":"object","properties":{"name":{},"threshold":{},"mode":{}}})";

krino::Config config(const char* json) { return krino::Config(boost::json::parse(json).as_object()); }

bool is_invalid(const krino::Error& e) { return e.code() == KRINO_INVALID_ARGUMENT; }

}  // namespace

BOOST_AUTO_TEST_SUITE(agent_evaluator_options)

BOOST_AUTO_TEST_CASE(defaults_apply_when_options_are_absent) {
  const auto options = krino::read_common_options(config("{}"), "tool_trajectory", 1.0);
  BOOST_TEST(options.name == "tool_trajectory");
  BOOST_TEST(options.threshold == 1.0);
}

BOOST_AUTO_TEST_CASE(threshold_outside_unit_interval_is_rejected) {
  BOOST_CHECK_EXCEPTION(krino::read_common_options(config(R"({"threshold":1.5})"), "x", 1.0), krino::Error,
                        is_invalid);
}

BOOST_AUTO_TEST_CASE(unknown_option_is_rejected) {
  BOOST_CHECK_EXCEPTION(krino::check_option_names(config(R"({"mdoe":"x"})"), kSchema), krino::Error, is_invalid);
}

BOOST_AUTO_TEST_CASE(choice_outside_the_list_is_rejected) {
  BOOST_TEST(krino::read_choice(config(R"({"mode":"b"})"), "mode", "a", {"a", "b"}) == "b");
  BOOST_CHECK_EXCEPTION(krino::read_choice(config(R"({"mode":"c"})"), "mode", "a", {"a", "b"}), krino::Error,
                        is_invalid);
}

BOOST_AUTO_TEST_SUITE_END()
