#include "krino/core/runner/eval_result_check.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

using namespace krino::core;

namespace {
std::string reason_for(std::string_view text) {
  auto r = check_eval_result(text, "e");
  return r.ok() ? std::string("accepted") : r.error().message;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(eval_result_check)

BOOST_AUTO_TEST_CASE(a_result_with_the_configured_name_is_kept_byte_for_byte) {
  const std::string text = R"({"name":"e","score":0.5,"success":false,"threshold":0.8,"reason":"r","metadata":{"k":[1]}})";
  auto r = check_eval_result(text, "e");
  BOOST_REQUIRE(std::holds_alternative<CheckedResult>(r));
  const auto& checked = std::get<CheckedResult>(r);
  BOOST_TEST(checked.json == text);
  BOOST_TEST(checked.record.name == "e");
  BOOST_TEST(*checked.record.score == 0.5);
  BOOST_TEST(checked.record.success == false);
}

BOOST_AUTO_TEST_CASE(another_name_or_a_multi_line_result_keeps_every_other_byte) {
  // Numbers stay as written (1.50, an integer beyond 64 bits); only the name's value changes, or a
  // raw line break becomes a space.
  auto renamed = check_eval_result(
      R"({"name":"plugin_default","score":1,"success":true,"metadata":{"n":1.50,"big":18446744073709551616}})", "configured");
  BOOST_REQUIRE(std::holds_alternative<CheckedResult>(renamed));
  BOOST_TEST(std::get<CheckedResult>(renamed).json ==
             R"({"name":"configured","score":1,"success":true,"metadata":{"n":1.50,"big":18446744073709551616}})");
  BOOST_TEST(*std::get<CheckedResult>(renamed).record.score == 1.0);
  auto unnamed = check_eval_result(R"( {"score":0.50,"success":true})", "configured");
  BOOST_REQUIRE(std::holds_alternative<CheckedResult>(unnamed));
  BOOST_TEST(std::get<CheckedResult>(unnamed).json == R"({"name":"configured","score":0.50,"success":true})");
  auto multi_line = check_eval_result("{\"name\":\"e\",\r\n \"score\":null,\"success\":false,\"metadata\":{\"x\":2.0}}", "e");
  BOOST_REQUIRE(std::holds_alternative<CheckedResult>(multi_line));
  BOOST_TEST(std::get<CheckedResult>(multi_line).json == "{\"name\":\"e\",   \"score\":null,\"success\":false,\"metadata\":{\"x\":2.0}}");
  BOOST_TEST(!std::get<CheckedResult>(multi_line).record.score.has_value());
  // Two "name" keys: one object with the configured name, written anew.
  auto twice = check_eval_result(R"({"name":"a","name":"b","score":1,"success":true})", "configured");
  BOOST_REQUIRE(std::holds_alternative<CheckedResult>(twice));
  BOOST_TEST(boost::json::parse(std::get<CheckedResult>(twice).json).at("name").as_string() == "configured");
}

BOOST_AUTO_TEST_CASE(every_contract_violation_has_its_reason) {
  BOOST_TEST(reason_for(R"({"name":"e","score":)").find("not valid JSON") == 0u);
  BOOST_TEST(reason_for(R"({"score":1,"success":true} [])").find("not valid JSON") == 0u);
  BOOST_TEST(reason_for("[1]") == "not a JSON object");
  BOOST_TEST(reason_for(R"({"success":true})") == "no \"score\"");
  BOOST_TEST(reason_for(R"({"score":"0.9","success":true})") == "\"score\" is neither a number nor null");
  BOOST_TEST(reason_for(R"({"score":1.7,"success":true})") == "\"score\" 1.7 is outside 0..1");
  BOOST_TEST(reason_for(R"({"score":-0.1,"success":false})") == "\"score\" -0.1 is outside 0..1");
  BOOST_TEST(reason_for(R"({"score":1,"success":"yes"})") == "\"success\" must be true or false");
  BOOST_TEST(reason_for(R"({"score":1,"success":true,"threshold":"x"})") == "\"threshold\" must be a number or null");
  BOOST_TEST(reason_for(R"({"score":1,"success":true,"reason":3})") == "\"reason\" must be a string");
  BOOST_TEST(reason_for(R"({"score":1,"success":true,"metadata":[]})") == "\"metadata\" must be an object");
  BOOST_TEST(reason_for(R"({"score":null,"success":true})") == "a null score cannot be a success");
  BOOST_TEST(reason_for(R"({"name":"e","score":0,"success":false,"metadata":{"score":"nested is fine"}})") == "accepted");
}

// What the check reads from the fields: a key may come escaped (and then in parts); "skipped" counts
// only as metadata's own member with the value true.
BOOST_AUTO_TEST_CASE(fields_are_read_whatever_their_keys_spelling) {
  const auto record = [](std::string_view text) {
    auto r = check_eval_result(text, "e");
    BOOST_REQUIRE(std::holds_alternative<CheckedResult>(r));
    return std::get<CheckedResult>(r);
  };
  BOOST_TEST(record(R"({"name":"e","score":null,"success":false,"metadata":{"skipped":true}})").record.skipped);
  BOOST_TEST(record(R"({"name":"e","score":null,"success":false,"metadata":{"x":[1,{"skipped":false}],"\u0073kipped":true}})").record.skipped);
  BOOST_TEST(!record(R"({"name":"e","score":null,"success":false,"metadata":{"skipped":false}})").record.skipped);
  BOOST_TEST(!record(R"({"name":"e","score":null,"success":false,"metadata":{"x":{"skipped":true}}})").record.skipped);
  BOOST_TEST(!record(R"({"name":"e","score":null,"success":false,"metadata":{"skipped":"yes"}})").record.skipped);
  BOOST_TEST(!record(R"({"name":"e","score":null,"success":false,"skipped":true,"metadata":{"skippedx":true}})").record.skipped);
  BOOST_TEST(!record(R"({"name":"e","score":null,"success":false,"other":{"skipped":true}})").record.skipped);

  const CheckedResult escaped = record(R"({"n\u0061me":"e","\u0073core":0.25,"succ\u0065ss":true,"thres\u0068old":0.2,"re\u0061son":"\u0072"})");
  BOOST_TEST(*escaped.record.score == 0.25);
  BOOST_TEST(escaped.record.success == true);
  BOOST_TEST(*escaped.record.threshold == 0.2);
  BOOST_TEST(escaped.json == R"({"n\u0061me":"e","\u0073core":0.25,"succ\u0065ss":true,"thres\u0068old":0.2,"re\u0061son":"\u0072"})");
  BOOST_TEST(reason_for(R"({"\u0073core":"1","success":true})") == "\"score\" is neither a number nor null");
  BOOST_TEST(reason_for(R"({"score":1,"success":true,"metadat\u0061":[]})") == "\"metadata\" must be an object");

  // A name written with escapes is still the configured name; another one is replaced.
  BOOST_TEST(record(R"({"name":"\u0065","score":1,"success":true})").json == R"({"name":"\u0065","score":1,"success":true})");
  BOOST_TEST(record(R"({"name":"f","score":1,"success":true})").json == R"({"name":"e","score":1,"success":true})");
  const std::string long_name(5000, 'n');
  BOOST_TEST(record(R"({"name":")" + long_name + R"(","score":1,"success":true})").json == R"({"name":"e","score":1,"success":true})");
}

// A reason cut inside a character by the plugin (here "é" missing its second byte) must neither
// lose the result nor put ill-formed UTF-8 into the event line.
BOOST_AUTO_TEST_CASE(ill_formed_utf8_in_a_reason_is_repaired_not_passed_on) {
  const std::string text = "{\"name\":\"e\",\"score\":1,\"success\":true,\"reason\":\"caf\xC3\"}";
  auto r = check_eval_result(text, "e");
  BOOST_REQUIRE(std::holds_alternative<CheckedResult>(r));
  const auto& checked = std::get<CheckedResult>(r);
  BOOST_TEST(*checked.record.score == 1.0);
  BOOST_TEST(boost::json::parse(checked.json).at("reason") == "caf\xEF\xBF\xBD");
}

BOOST_AUTO_TEST_SUITE_END()
