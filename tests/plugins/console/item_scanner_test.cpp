#include "console_test_support.hpp"
#include "item_scanner.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::console;
namespace t = krino::console::testing;

BOOST_AUTO_TEST_SUITE(console_item_scanner)

BOOST_AUTO_TEST_CASE(reads_identity_verdict_and_failing_results) {
  const auto item = scan_item_finished(t::item(
      2, 41, "q-42", "data.jsonl:42",
      {t::result("exact_match", 1.0, true, 1.0, "exact"), t::result("faithfulness", 0.25, false, 0.7, "made up"),
       t::result("judge", std::nullopt, false, std::nullopt, "no score")}));
  BOOST_REQUIRE(item.has_value());
  BOOST_TEST(item->run_index == 2u);
  BOOST_TEST(item->index == 41u);
  BOOST_TEST(item->id.value_or("") == "q-42");
  BOOST_TEST(item->location.value_or("") == "data.jsonl:42");
  BOOST_TEST((item->verdict == Verdict::fail));
  BOOST_REQUIRE(item->failed_checks.size() == 2u);
  BOOST_TEST(item->failed_checks[0].name == "faithfulness");
  BOOST_TEST(item->failed_checks[0].score.value_or(-1) == 0.25);
  BOOST_TEST(item->failed_checks[0].threshold.value_or(-1) == 0.7);
  BOOST_TEST(item->failed_checks[0].reason == "made up");
  BOOST_TEST(!item->failed_checks[1].score.has_value());
  BOOST_TEST(!item->failed_checks[1].threshold.has_value());
}

// The host writes results before the example's sections: once they are read, the rest of a failing
// item is not. The bytes after the results here are not even JSON, and the item still reads.
BOOST_AUTO_TEST_CASE(stops_after_the_results_of_a_failing_item) {
  const std::string event =
      R"({"event":"item_finished","schema":"krino.event/1","run_index":0,"index":3,"id":"q","location":null,)"
      R"("success":false,"error":null,"results":[{"name":"exact_match","score":0.0,"success":false,"threshold":1.0,)"
      R"("reason":"differs","metadata":{}}],"inputs":{"never": read)";
  const auto item = scan_item_finished(event);
  BOOST_REQUIRE(item.has_value());
  BOOST_TEST((item->verdict == Verdict::fail));
  BOOST_REQUIRE(item->failed_checks.size() == 1u);
  BOOST_TEST(item->failed_checks[0].reason == "differs");
}

BOOST_AUTO_TEST_CASE(reads_an_item_error) {
  const auto item = scan_item_finished(
      t::errored_item(0, 7, std::nullopt, "data.jsonl:8", "dataset", "jsonl", "INVALID_ARGUMENT", "not JSON"));
  BOOST_REQUIRE(item.has_value());
  BOOST_TEST((item->verdict == Verdict::error));
  BOOST_TEST(!item->id.has_value());
  BOOST_TEST(item->error.stage == "dataset");
  BOOST_TEST(item->error.component == "jsonl");
  BOOST_TEST(item->error.code == "INVALID_ARGUMENT");
  BOOST_TEST(item->error.message == "not JSON");
}

BOOST_AUTO_TEST_CASE(key_order_escapes_and_nesting_do_not_matter) {
  const std::string event =
      R"({"results": [{"metadata": {"name": "inner", "success": true, "score": 9, "reason": "x"}, "reason": "line\nnext \"q\" \u00e9",
                       "success": false, "name": "exact_match", "threshold": 1, "score": 0}],
          "inputs": {"error": {"stage": "nope"}, "results": [{"success": false}]},
          "index": 5, "success": false, "error": null, "id": "q-\u0036", "run_index": 1, "location": null,
          "event": "item_finished", "schema": "krino.event/1"})";
  const auto item = scan_item_finished(event);
  BOOST_REQUIRE(item.has_value());
  BOOST_TEST((item->verdict == Verdict::fail));
  BOOST_TEST(item->index == 5u);
  BOOST_TEST(item->run_index == 1u);
  BOOST_TEST(item->id.value_or("") == "q-6");
  BOOST_TEST(!item->location.has_value());
  BOOST_REQUIRE(item->failed_checks.size() == 1u);
  BOOST_TEST(item->failed_checks[0].name == "exact_match");
  BOOST_TEST(item->failed_checks[0].score.value_or(-1) == 0.0);
  BOOST_TEST(item->failed_checks[0].reason == "line\nnext \"q\" \xc3\xa9");
}

BOOST_AUTO_TEST_CASE(a_passing_item_is_known_before_its_bulk_is_read) {
  // Everything after "error": null is skipped; here it is cut off altogether.
  const auto item = scan_item_finished(
      R"({"event":"item_finished","schema":"krino.event/1","run_index":0,"index":3,"id":"q-4","location":null,)"
      R"("success":true,"error":null,"inputs":{"input":"a very long)");
  BOOST_REQUIRE(item.has_value());
  BOOST_TEST((item->verdict == Verdict::pass));
  BOOST_TEST(item->index == 3u);
}

BOOST_AUTO_TEST_CASE(without_a_success_field_the_results_decide) {
  const auto passed = scan_item_finished(
      R"({"event":"item_finished","run_index":0,"index":0,"error":null,"results":[{"name":"a","success":true}]})");
  BOOST_REQUIRE(passed.has_value());
  BOOST_TEST((passed->verdict == Verdict::pass));
  const auto empty = scan_item_finished(R"({"event":"item_finished","run_index":0,"index":0,"results":[]})");
  BOOST_REQUIRE(empty.has_value());
  BOOST_TEST((empty->verdict == Verdict::fail));
}

BOOST_AUTO_TEST_CASE(other_events_and_broken_text_are_left_to_the_document_reader) {
  BOOST_TEST(!scan_item_finished(t::run_started(0, 1, 5)).has_value());
  BOOST_TEST(!scan_item_finished(R"({"event":"run_finished","run_index":0})").has_value());
  BOOST_TEST(!scan_item_finished(R"({"index":1,"success":false})").has_value());
  BOOST_TEST(!scan_item_finished(R"({"event":"item_finished","index":1,"success":fal)").has_value());
  BOOST_TEST(!scan_item_finished("[1,2]").has_value());
  BOOST_TEST(!scan_item_finished("").has_value());
}

BOOST_AUTO_TEST_CASE(collected_text_is_bounded) {
  const std::string huge(1 << 20, 'x');
  const auto item = scan_item_finished(t::failing_item(0, 0, "q-1", huge));
  BOOST_REQUIRE(item.has_value());
  BOOST_REQUIRE(item->failed_checks.size() == 1u);
  BOOST_TEST(item->failed_checks[0].reason.size() == 64u * 1024u);
}

BOOST_AUTO_TEST_SUITE_END()
