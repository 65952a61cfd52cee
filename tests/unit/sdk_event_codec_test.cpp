// The krino.event/1 codec (krino/event/): every event reads back as the model it was written from,
// and the lines krino writes come back byte for byte.
#include <krino/event/event_head.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>

namespace ev = krino::event;

namespace {

// An item line as the runner writes it: results before the sections.
const std::string kItemLine =
    R"({"event":"item_finished","schema":"krino.event/1","run_index":1,"index":41,"id":"q-42","datasetItemId":null,)"
    R"("location":"data.jsonl:42","success":false,"error":null,"results":[)"
    R"({"name":"exact_match","score":1.0,"success":true,"threshold":1.0,"reason":"exact","metadata":{}},)"
    R"({"name":"faithfulness","score":0.25,"success":false,"threshold":0.7,"reason":"made up","metadata":{}},)"
    R"({"name":"judge","score":null,"success":false,"threshold":null,"reason":"no score","metadata":{"skipped":true}}],)"
    R"("metrics":{"tokensIn":12,"tokensOut":null,"costUsd":0.5,"latencyMs":3.25},)"
    R"("judge":{"calls":2,"cachedCalls":1,"failedCalls":0,"retries":1,"repairs":0,"tokensIn":30,"tokensOut":4,)"
    R"("costUsd":0.3,"costUsdExact":0.30000000000000004,"unpricedTokens":false,"byEvaluator":{"faithfulness":)"
    R"({"calls":2,"cachedCalls":1,"failedCalls":0,"retries":1,"repairs":0,"tokensIn":30,"tokensOut":4,"costUsd":0.3,)"
    R"("costUsdExact":0.30000000000000004,"unpricedTokens":false}}},"durationMs":1.5,)"
    R"("inputs":{"input":"Capital of France?"},"expectedOutputs":{"output":"Paris"},"actualOutputs":{"output":"Lyon"},)"
    R"("metadata":{}})";

std::string written(const ev::ItemFinished& item) {
  std::string out;
  ev::append_item_finished(out, item);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sdk_event_codec)

BOOST_AUTO_TEST_CASE(an_item_line_reads_into_its_model_and_writes_back_byte_for_byte) {
  const ev::ItemFinished item = ev::read_item_finished(kItemLine);
  BOOST_TEST(item.run_index == 1u);
  BOOST_TEST(item.index == 41u);
  BOOST_TEST(item.id_text().value_or("") == "q-42");
  BOOST_TEST(item.dataset_item_id.empty());
  BOOST_TEST(item.location.value_or("") == "data.jsonl:42");
  BOOST_TEST(!item.success);
  BOOST_TEST((item.status() == ev::ItemStatus::failed));
  BOOST_REQUIRE(item.results.size() == 3u);
  BOOST_TEST(item.results[1].name == "faithfulness");
  BOOST_TEST(item.results[1].score.value_or(-1) == 0.25);
  BOOST_TEST(item.results[1].threshold.value_or(-1) == 0.7);
  BOOST_TEST(item.results[1].reason == "made up");
  BOOST_TEST(!item.results[2].score.has_value());
  BOOST_TEST(item.results[2].skipped);
  BOOST_REQUIRE(item.metrics.has_value());
  BOOST_TEST(item.metrics->tokens_in.value_or(0) == 12);
  BOOST_TEST(!item.metrics->tokens_out.has_value());
  BOOST_REQUIRE(item.judge.has_value());
  BOOST_TEST(*item.judge->cost_usd == 0.1 + 0.2);  // the exact cost, not the rounded one
  BOOST_REQUIRE(item.judge_by_evaluator.size() == 1u);
  BOOST_TEST(item.judge_by_evaluator[0].first == "faithfulness");
  BOOST_TEST(item.inputs == R"({"input":"Capital of France?"})");
  BOOST_TEST(written(item) == kItemLine);
}

BOOST_AUTO_TEST_CASE(the_dataset_item_id_is_written_and_read_as_a_token) {
  ev::ItemFinished item = ev::read_item_finished(kItemLine);
  item.dataset_item_id = R"("0193a1b2-7c00-7000-8000-000000000001")";
  const std::string line = written(item);
  BOOST_TEST(line.find(R"("id":"q-42","datasetItemId":"0193a1b2-7c00-7000-8000-000000000001","location")") !=
             std::string::npos);
  BOOST_TEST(ev::read_item_finished(line).dataset_item_id == item.dataset_item_id);
}

BOOST_AUTO_TEST_CASE(key_order_escapes_and_nesting_do_not_matter) {
  const std::string event =
      R"({"results": [{"metadata": {"name": "inner", "success": true, "score": 9, "reason": "x"}, "reason": "line\nnext \"q\" \u00e9",
                       "success": false, "name": "exact_match", "threshold": 1, "score": 0}],
          "inputs": {"error": {"stage": "nope"}, "results": [{"success": false}]},
          "index": 5, "success": false, "error": null, "id": "q-\u0036", "run_index": 1, "location": null,
          "event": "item_finished", "schema": "krino.event/1"})";
  const ev::ItemFinished item = ev::read_item_finished(event);
  BOOST_TEST(item.index == 5u);
  BOOST_TEST(item.run_index == 1u);
  BOOST_TEST(item.id_text().value_or("") == "q-6");
  BOOST_TEST(!item.location.has_value());
  BOOST_TEST(!item.error.has_value());
  BOOST_REQUIRE(item.results.size() == 1u);
  BOOST_TEST(item.results[0].name == "exact_match");
  BOOST_TEST(item.results[0].score.value_or(-1) == 0.0);
  BOOST_TEST(item.results[0].reason == "line\nnext \"q\" \xc3\xa9");
  const ev::EventHead head = ev::read_event_head(event);
  BOOST_TEST((head.kind == ev::EventKind::item_finished));
  BOOST_TEST(head.has_schema);
}

BOOST_AUTO_TEST_CASE(the_head_of_an_item_is_read_without_its_sections) {
  // The sections here are not even JSON; what comes before them still reads.
  const std::string event =
      R"({"event":"item_finished","schema":"krino.event/1","run_index":0,"index":3,"id":"q","location":null,)"
      R"("success":false,"error":null,"results":[{"name":"exact_match","score":0.0,"success":false,"threshold":1.0,)"
      R"("reason":"differs","metadata":{}}],"durationMs":2.0,"inputs":{"never": read)";
  const ev::ItemFinished item = ev::read_item_finished(event, ev::ItemParts::head);
  BOOST_REQUIRE(item.results.size() == 1u);
  BOOST_TEST(item.results[0].reason == "differs");
  BOOST_TEST(item.duration_ms.value_or(0) == 2.0);
  BOOST_TEST(item.inputs.empty());
}

BOOST_AUTO_TEST_CASE(head_of_failures_stops_at_a_passing_verdict_and_reads_a_failure_whole) {
  // A passing item: everything after "error" is cut off here, and it still reads.
  const std::string passing =
      R"({"event":"item_finished","schema":"krino.event/1","run_index":0,"index":3,"id":"q-4","location":null,)"
      R"("success":true,"error":null,"results":[{"name":"a","score":)";
  const ev::ItemFinished passed = ev::read_item_finished(passing, ev::ItemParts::head_of_failures);
  BOOST_TEST(passed.success);
  BOOST_TEST(passed.index == 3u);
  BOOST_TEST(passed.results.empty());
  const ev::ItemFinished failed = ev::read_item_finished(kItemLine, ev::ItemParts::head_of_failures);
  BOOST_TEST(failed.results.size() == 3u);
  BOOST_TEST(failed.inputs.empty());
}

// Whole numbers are read without the parser; every form reads as the double Boost.JSON gives.
BOOST_AUTO_TEST_CASE(numbers_read_as_the_parser_reads_them) {
  for (std::string_view token : {"0", "1", "1.0", "0.0", "12.000", "999999999999999", "9999999999999999",
                                 "-0", "-0.0", "-1.0", "1e2", "1.5", "0.8333333333333334", "123456789012345678"}) {
    const auto read = ev::read_number(token, "score");
    BOOST_REQUIRE(read.has_value());
    const double expected = ev::detail::scalar(token, "score", "a number").to_number<double>();
    BOOST_TEST(std::signbit(*read) == std::signbit(expected), token);
    BOOST_TEST(*read == expected, token);
  }
  for (std::string_view token : {"01", "1.", "1.0x", "\"1\"", "true"})
    BOOST_CHECK_THROW(ev::read_number(token, "score"), ev::DecodeError);
}

// A result's "skipped" is found however its metadata spells it, and only at its top level.
BOOST_AUTO_TEST_CASE(a_skipped_result_is_found_in_any_spelling) {
  BOOST_TEST(ev::read_item_result(R"({"name":"a","success":true,"metadata":{"x":[1],"skipped":true}})").skipped);
  BOOST_TEST(ev::read_item_result(R"({"name":"a","success":true,"metadata":{"\u0073kipped":true}})").skipped);
  BOOST_TEST(!ev::read_item_result(R"({"name":"a","success":true,"metadata":{"skipped":false}})").skipped);
  BOOST_TEST(!ev::read_item_result(R"({"name":"a","success":true,"metadata":{"x":{"skipped":true}}})").skipped);
  BOOST_TEST(!ev::read_item_result(R"({"name":"a","success":true,"metadata":{"x":"not skipped"}})").skipped);
  BOOST_TEST(!ev::read_item_result(R"({"name":"a","success":true,"metadata":{"pairs":[{"a":1}]}})").skipped);
}

BOOST_AUTO_TEST_CASE(an_item_error_reads_back) {
  ev::ItemFinished item;
  item.index = 7;
  item.location = "data.jsonl:8";
  item.error = ev::ItemError{"dataset", "jsonl", "INVALID_ARGUMENT", "not \"JSON\""};
  item.inputs = "{}";
  const std::string line = written(item);  // the model's views point into it
  const ev::ItemFinished back = ev::read_item_finished(line);
  BOOST_TEST((back.status() == ev::ItemStatus::errored));
  BOOST_TEST(!back.id_text().has_value());
  BOOST_TEST(back.label() == "#7");
  BOOST_TEST(back.error->stage == "dataset");
  BOOST_TEST(back.error->component == "jsonl");
  BOOST_TEST(back.error->code == "INVALID_ARGUMENT");
  BOOST_TEST(back.error->message == "not \"JSON\"");
  BOOST_TEST(back.actual_outputs.empty());  // written as null
  BOOST_TEST(written(back) == written(item));
}

BOOST_AUTO_TEST_CASE(a_member_of_the_wrong_type_names_itself) {
  const std::string bad = R"({"event":"item_finished","run_index":0,"index":"three"})";
  BOOST_CHECK_EXCEPTION(ev::read_item_finished(bad), ev::DecodeError,
                        [](const ev::DecodeError& e) { return std::string(e.what()).find("\"index\"") != std::string::npos; });
  BOOST_CHECK_EXCEPTION(ev::read_item_finished(R"({"event":"item_finished","judge":{"calls":"many"}})"), ev::DecodeError,
                        [](const ev::DecodeError& e) { return std::string(e.what()).find("\"judge.calls\"") == 0; });
  const std::string bad_score = R"({"event":"item_finished","results":[{"name":"a","score":"high","success":true}]})";
  BOOST_CHECK_THROW(ev::read_item_finished(bad_score), ev::DecodeError);
}

BOOST_AUTO_TEST_CASE(run_started_reads_and_writes_back) {
  ev::RunStarted started;
  started.run_index = 2;
  started.runs = 3;
  started.experiment_name = "qa \"smoke\"";
  started.experiment_description = "";
  started.experiment_metadata = boost::json::object{{"owner", "team-a"}, {"budget", 1.5}};
  started.dataset = ev::DatasetInfo{"datasets/qa.jsonl", "qa", "questions", 12};
  started.evaluators = {{"exact_match", "krino.text.exact_match", 1.0}, {"judge", "krino.judge.g_eval", std::nullopt}};
  started.parallelism = 4;
  started.timestamp = "2026-11-27T00:00:00Z";
  started.shard = ev::ShardInfo{1, 2};
  std::string line;
  ev::append_run_started(line, started);
  BOOST_TEST(line ==
             R"({"event":"run_started","schema":"krino.event/1","run_index":2,"runs":3,"experiment":{"name":"qa \"smoke\"",)"
             R"("description":"","metadata":{"owner":"team-a","budget":1.5}},"dataset":{"uri":"datasets/qa.jsonl",)"
             R"("name":"qa","description":"questions","sizeHint":12},"evaluators":[{"name":"exact_match",)"
             R"("component":"krino.text.exact_match","threshold":1.0},{"name":"judge","component":"krino.judge.g_eval",)"
             R"("threshold":null}],"parallelism":4,"timestamp":"2026-11-27T00:00:00Z","shard":{"index":1,"count":2}})");
  const ev::RunStarted back = ev::read_run_started(line);
  BOOST_TEST(back.experiment_name == started.experiment_name);
  BOOST_TEST(back.dataset.size_hint.value_or(0) == 12u);
  BOOST_REQUIRE(back.evaluators.size() == 2u);
  BOOST_TEST(!back.evaluators[1].threshold.has_value());
  BOOST_REQUIRE(back.shard.has_value());
  BOOST_TEST(back.shard->count == 2u);
  std::string again;
  ev::append_run_started(again, back);
  BOOST_TEST(again == line);
}

BOOST_AUTO_TEST_CASE(finished_events_read_and_write_back) {
  const boost::json::object summary{{"totalCount", 4},
                                    {"passCount", 3},
                                    {"failCount", 1},
                                    {"errorCount", 0},
                                    {"passRate", 0.75},
                                    {"evaluators", boost::json::object{{"e", boost::json::object{{"count", 4}, {"averageScore", 0.8}}}}}};
  std::string line;
  ev::append_finished(line, 0u, false, 12.5, summary, std::nullopt, ev::MergedInfo{3, {2}});
  BOOST_TEST(line == R"({"event":"run_finished","schema":"krino.event/1","run_index":0,"status":"completed","durationMs":12.5,)"
                     R"("summary":{"totalCount":4,"passCount":3,"failCount":1,"errorCount":0,"passRate":0.75,"evaluators":)"
                     R"({"e":{"count":4,"averageScore":0.8}}},"merged":{"count":3,"missing":[2]}})");
  const ev::Finished back = ev::read_finished(line);
  BOOST_TEST(back.run_index.value_or(9) == 0u);
  BOOST_TEST(!back.cancelled());
  BOOST_TEST(back.summary.pass_rate == 0.75);
  BOOST_REQUIRE(back.summary.evaluators.size() == 1u);
  BOOST_TEST(back.summary.evaluators[0].count.value_or(0) == 4u);
  BOOST_REQUIRE(back.merged.has_value());
  BOOST_TEST(back.merged->missing.size() == 1u);

  std::string experiment;
  ev::append_finished(experiment, std::nullopt, true, 3.0, boost::json::object{});
  BOOST_TEST(experiment == R"({"event":"experiment_finished","schema":"krino.event/1","run_index":null,"status":"cancelled",)"
                           R"("durationMs":3.0,"summary":{}})");
  BOOST_TEST((ev::read_event_head(experiment).kind == ev::EventKind::experiment_finished));
  BOOST_TEST(ev::read_finished(experiment).cancelled());
}

BOOST_AUTO_TEST_SUITE_END()
