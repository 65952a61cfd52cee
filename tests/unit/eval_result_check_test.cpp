#include "krino/core/runner/eval_result_check.hpp"
#include "krino/core/runner/result_sink.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
#include <krino/plugin/eval_result.hpp>

#include <cmath>
#include <limits>

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

// ABI 1.2: a result handed over as values reads exactly as the same result sent as text.
BOOST_AUTO_TEST_CASE(values_give_the_result_text_gives_byte_for_byte) {
  std::vector<krino::EvalResult> results;
  results.push_back(krino::EvalResult::scored("plugin_default", 1.0, 0.5, "matched"));
  results.push_back(krino::EvalResult::scored("e", 0.1 + 0.2, 0.3, "0.30000000000000004 is not 0.3"));
  results.push_back(krino::EvalResult::unscored("e", std::nullopt, "no \"expected\" output\n\ttab \x01 and \\"));
  results.push_back(krino::EvalResult::scored("e", 0.0, 1e-7, "caf\xC3\xA9 \xF0\x9F\x98\x80 \xE2\x80\xA8"));
  results.push_back(krino::EvalResult::scored("", 5e-324, 0.0));
  krino::EvalResult with_metadata = krino::EvalResult::scored("e", 0.75, 0.8, std::string(300, 'r'));
  with_metadata.metadata = boost::json::parse(R"({"n":1.5,"big":18446744073709551615,"neg":-3,"nested":{"skipped":true},"s":"\u00e9\n"})").as_object();
  results.push_back(with_metadata);
  krino::EvalResult skipped = krino::EvalResult::unscored("e", 0.5, "does not apply");
  skipped.metadata = boost::json::parse(R"({"skipped":true,"why":["no tools"]})").as_object();
  results.push_back(skipped);
  krino::EvalResult not_skipped = krino::EvalResult::scored("e", 1, 1);
  not_skipped.metadata = boost::json::parse(R"({"skipped":false})").as_object();
  results.push_back(not_skipped);

  krino::EvalResult written = krino::EvalResult::scored("e", 1.0, 1.0, "metadata written as text");
  krino::json::CompactWriter(written.metadata_json).begin_object().key("n").count(6).key("skipped").boolean(true).end_object();
  results.push_back(written);

  for (const krino::EvalResult& r : results) {
    std::string text;
    r.append_json(text);
    const auto from_text = check_eval_result(text, "configured");
    BOOST_TEST_REQUIRE(from_text.ok(), text);
    std::string metadata_text;
    const std::optional<CheckedResult> from_values = check_eval_values(r.values(metadata_text), "configured");
    BOOST_TEST_REQUIRE(from_values.has_value(), text);
    BOOST_TEST(from_values->json == from_text.value().json);
    BOOST_TEST(from_values->record.name == "configured");
    BOOST_TEST((from_values->record.score == from_text.value().record.score));
    BOOST_TEST(from_values->record.success == from_text.value().record.success);
    BOOST_TEST((from_values->record.threshold == from_text.value().record.threshold));
    BOOST_TEST(from_values->record.skipped == from_text.value().record.skipped);
  }
  std::string metadata_text;
  BOOST_TEST(check_eval_values(skipped.values(metadata_text), "e")->record.skipped);
  BOOST_TEST(check_eval_values(written.values(metadata_text), "e")->record.skipped);
}

// Metadata an evaluator writes as text reads and writes as the same metadata built as an object;
// setting both is an evaluator's bug, refused rather than one of them silently dropped.
BOOST_AUTO_TEST_CASE(metadata_written_as_text_is_the_same_result_as_metadata_built) {
  krino::EvalResult built = krino::EvalResult::scored("e", 0.5, 1.0, "r");
  built.metadata = boost::json::parse(R"({"actualCount":6,"tools":["a","b"],"ratio":0.5})").as_object();
  krino::EvalResult written = krino::EvalResult::scored("e", 0.5, 1.0, "r");
  krino::json::CompactWriter(written.metadata_json)
      .begin_object()
      .key("actualCount").count(6)
      .key("tools").begin_array().string("a").string("b").end_array()
      .key("ratio").number(0.5)
      .end_object();
  std::string built_text, written_text;
  built.append_json(built_text);
  written.append_json(written_text);
  BOOST_TEST(written_text == built_text);
  BOOST_TEST(written.metadata_object() == built.metadata_object());
  BOOST_TEST(written.to_json() == built.to_json());
  std::string scratch = "untouched";
  const krino_eval_result values = written.values(scratch);
  BOOST_TEST(std::string_view(values.metadata_json, values.metadata_size) == written.metadata_json);
  BOOST_TEST(scratch == "untouched");

  written.metadata = built.metadata;
  std::string text;
  BOOST_CHECK_THROW(written.append_json(text), krino::Error);
  BOOST_CHECK_THROW(written.values(scratch), krino::Error);
}

// Values the text check has a message for are left to it: the host refuses them, the helper then
// writes the text, and the item's error reads as it always has.
BOOST_AUTO_TEST_CASE(values_the_text_check_must_judge_are_refused) {
  const krino::EvalResult good = krino::EvalResult::scored("e", 0.5, 0.5, "ok");
  std::string metadata_text;
  const krino_eval_result base = good.values(metadata_text);
  BOOST_TEST(check_eval_values(base, "e").has_value());
  auto refused = [&](auto change) {
    krino_eval_result v = base;
    change(v);
    return !check_eval_values(v, "e").has_value();
  };
  BOOST_TEST(refused([](krino_eval_result& v) { v.score = 1.5; }));
  BOOST_TEST(refused([](krino_eval_result& v) { v.score = -0.0001; }));
  BOOST_TEST(refused([](krino_eval_result& v) { v.score = std::nan(""); }));
  BOOST_TEST(refused([](krino_eval_result& v) { v.success = 2; }));
  BOOST_TEST(refused([](krino_eval_result& v) { v.has_score = 0; v.success = 1; }));
  BOOST_TEST(refused([](krino_eval_result& v) { v.threshold = std::numeric_limits<double>::infinity(); }));
  BOOST_TEST(refused([](krino_eval_result& v) { v.reason = "caf\xC3"; v.reason_size = 4; }));
  BOOST_TEST(refused([](krino_eval_result& v) { v.reason = nullptr; v.reason_size = 3; }));
  BOOST_TEST(refused([](krino_eval_result& v) { v.metadata_json = "[1]"; v.metadata_size = 3; }));
  BOOST_TEST(refused([](krino_eval_result& v) { v.metadata_json = "{\"a\":"; v.metadata_size = 5; }));
  BOOST_TEST(refused([](krino_eval_result& v) { v.metadata_json = "{\n}"; v.metadata_size = 3; }));
  BOOST_TEST(refused([](krino_eval_result& v) { v.metadata_json = "{\"a\":\"\xC3\"}"; v.metadata_size = 9; }));
  BOOST_TEST(refused([](krino_eval_result& v) { v.metadata_json = nullptr; v.metadata_size = 2; }));
  BOOST_TEST(refused([](krino_eval_result& v) { v.metadata_json = "{},\"score\":0"; v.metadata_size = 13; }));
  BOOST_TEST(refused([](krino_eval_result& v) { v.metadata_json = "{}}"; v.metadata_size = 3; }));
  BOOST_TEST(refused([](krino_eval_result& v) { v.metadata_json = "1"; v.metadata_size = 1; }));
  BOOST_TEST(refused([](krino_eval_result& v) { v.struct_size = offsetof(krino_eval_result, metadata_json); }));
  // Taken: a null threshold, no reason at all, an empty metadata object written out.
  BOOST_TEST(!refused([](krino_eval_result& v) { v.has_threshold = 0; v.reason = nullptr; v.reason_size = 0; }));
  BOOST_TEST(!refused([](krino_eval_result& v) { v.metadata_json = "{}"; v.metadata_size = 2; }));
}

// The sink the host hands an evaluate call, with the C++ helper writing to it.
BOOST_AUTO_TEST_CASE(the_result_sink_takes_values_once_and_falls_back_to_text) {
  {
    ResultSink sink("configured");
    BOOST_TEST((sink.values_offer() == ResultSink::ValuesOffer::unused));
    krino::EvalResult::scored("own", 1, 0.5, "r").write_to(sink.sink());
    BOOST_TEST((sink.values_offer() == ResultSink::ValuesOffer::taken));
    BOOST_TEST(!sink.wrote_after_taken());
    BOOST_TEST(!sink.wrote_text());
    WrittenResult taken = sink.take();
    BOOST_TEST_REQUIRE(std::holds_alternative<CheckedResult>(taken));
    BOOST_TEST(std::get<CheckedResult>(taken).json ==
               R"({"name":"configured","score":1.0,"success":true,"threshold":0.5,"reason":"r","metadata":{}})");
  }
  {  // A value the host leaves to the text check: the helper writes the text, whose check says why.
    ResultSink sink("e");
    krino::EvalResult r = krino::EvalResult::scored("e", 1.25, 0.5);
    r.write_to(sink.sink());
    BOOST_TEST((sink.values_offer() == ResultSink::ValuesOffer::refused));
    BOOST_TEST(sink.wrote_text());
    BOOST_TEST(!sink.wrote_after_taken());
    WrittenResult taken = sink.take();
    BOOST_TEST_REQUIRE(std::holds_alternative<std::string>(taken));
    const auto checked = check_eval_result(std::get<std::string>(taken), "e");
    BOOST_TEST_REQUIRE(!checked.ok());
    BOOST_TEST(checked.error().message == "\"score\" 1.25 is outside 0..1");
  }
  {  // A host older than ABI 1.2 hands a shorter sink: the helper writes text.
    ResultSink sink("e");
    sink.sink()->struct_size = offsetof(krino_sink, write_eval_result);
    krino::EvalResult::scored("e", 1, 0.5).write_to(sink.sink());
    WrittenResult taken = sink.take();
    BOOST_TEST_REQUIRE(std::holds_alternative<std::string>(taken));
    BOOST_TEST(std::get<std::string>(taken) ==
               R"({"name":"e","score":1.0,"success":true,"threshold":0.5,"reason":"","metadata":{}})");
  }
  {  // Values twice, or after text, are refused; text after values is what the host keeps.
    ResultSink sink("e");
    std::string metadata_text;
    const krino_eval_result v = krino::EvalResult::scored("e", 1, 0.5).values(metadata_text);
    BOOST_TEST(sink.sink()->write_eval_result(sink.sink(), &v) == KRINO_OK);
    BOOST_TEST(sink.sink()->write_eval_result(sink.sink(), &v) != KRINO_OK);
    BOOST_TEST(sink.wrote_after_taken());  // what `krino plugins check` reports
    BOOST_TEST((sink.values_offer() == ResultSink::ValuesOffer::taken));
    sink.sink()->write(sink.sink(), "junk", 4);
    WrittenResult taken = sink.take();
    BOOST_TEST_REQUIRE(std::holds_alternative<std::string>(taken));
    BOOST_TEST(std::get<std::string>(taken) == "junk");
    ResultSink text_first("e");
    text_first.sink()->write(text_first.sink(), "{", 1);
    BOOST_TEST(text_first.sink()->write_eval_result(text_first.sink(), &v) != KRINO_OK);
    BOOST_TEST((text_first.values_offer() == ResultSink::ValuesOffer::refused));
    BOOST_TEST(!text_first.wrote_after_taken());
    ResultSink text_after("e");  // text alone after values taken is also more than the contract allows
    BOOST_TEST(text_after.sink()->write_eval_result(text_after.sink(), &v) == KRINO_OK);
    text_after.sink()->write(text_after.sink(), "{}", 2);
    BOOST_TEST(text_after.wrote_after_taken());
  }
}

BOOST_AUTO_TEST_SUITE_END()
