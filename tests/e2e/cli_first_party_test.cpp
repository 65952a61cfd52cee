// The real binary with the first-party plugins, the bundled sample, and the out-of-tree SDK example.
#include "json_lines.hpp"
#include "process.hpp"
#include "test_paths.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace krino::test;
namespace json = boost::json;

namespace {
}  // namespace

BOOST_AUTO_TEST_SUITE(cli_first_party)

BOOST_AUTO_TEST_CASE(plugins_list_shows_every_first_party_component) {
  ProcessResult r = run_process({krino_binary(), "plugins", "list"});
  BOOST_TEST(r.exit_code == 0, r.out << r.err);
  for (const char* id : {"krino.exact_match", "krino.regex", "krino.contains", "krino.length", "krino.structural_match",
                         "krino.precision", "krino.recall", "krino.files.jsonl", "krino.files.json", "krino.files.csv",
                         "krino.console", "krino.json"}) {
    BOOST_TEST(r.out.find(id) != std::string::npos, id << " missing:\n" << r.out);
  }
}

BOOST_AUTO_TEST_CASE(plugins_info_structural_match_prints_options_with_defaults) {
  ProcessResult r = run_process({krino_binary(), "plugins", "info", "structural_match"});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(r.out.find("match_mode") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("(strict|lenient)") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("default \"strict\"") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("binary") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("default false") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("threshold") != std::string::npos, r.out);
}

BOOST_AUTO_TEST_CASE(the_bundled_sample_runs_and_reports_json_lines) {
  std::string out = temp_path("capitals.jsonl");
  ProcessResult r = run_process({krino_binary(), "run", source_path("datasets/capitals.yaml"), "--set",
                                 "reporters=[console, {use: json, path: " + out + "}]"});
  BOOST_TEST(r.exit_code == 0, r.out << r.err);
  BOOST_TEST(r.out.find("Pass rate: 60.0%") != std::string::npos, r.out);
  auto events = json_lines(out);
  BOOST_REQUIRE(events.size() == 13u);
  for (const auto& e : events) BOOST_TEST(e.contains("run_index"));
  BOOST_TEST(events[3].at("id").as_string() == "cap-03");
  BOOST_TEST(events[3].at("success").as_bool() == false);
  BOOST_TEST(events.back().at("summary").as_object().at("passRate").as_double() == 0.6);
  std::filesystem::remove(out);
}

BOOST_AUTO_TEST_CASE(an_example_with_a_dataset_item_id_reports_it_and_one_without_reports_null) {
  const std::string data = temp_path("stored.jsonl");
  const std::string out = temp_path("stored-events.jsonl");
  const std::string experiment = temp_path("stored.yaml");
  write_file(data,
             R"({"id":"a","datasetItemId":"0193a1b2-0001","inputs":{"input":"q"},"expectedOutputs":{"output":"x"},)"
             R"("metadata":{},"actualOutputs":{"output":"x"}})"
             "\n"
             R"({"id":"b","inputs":{"input":"q"},"expectedOutputs":{"output":"x"},"metadata":{},"actualOutputs":{"output":"y"}})"
             "\n");
  write_file(experiment, "name: stored\ndataset: " + data + "\ntask: replay\nevaluators: [exact_match]\n"
                         "reporters: [{use: json, path: " + out + "}]\n");
  ProcessResult r = run_process({krino_binary(), "run", experiment});
  BOOST_TEST(r.exit_code == 1, r.out << r.err);  // one of two passes
  auto events = json_lines(out);
  BOOST_REQUIRE(events.size() == 5u);
  BOOST_TEST(events[1].at("datasetItemId").as_string() == "0193a1b2-0001");
  BOOST_TEST(events[2].at("datasetItemId").is_null());
  for (const auto& path : {data, out, experiment}) std::filesystem::remove(path);
}

BOOST_AUTO_TEST_CASE(the_csv_twin_gives_the_same_summary) {
  std::string jsonl_out = temp_path("a.jsonl");
  std::string csv_out = temp_path("b.jsonl");
  auto run = [&](const std::string& dataset, const std::string& out) {
    return run_process({krino_binary(), "run", source_path("datasets/capitals.yaml"), "--set", "dataset=" + dataset,
                        "--set", "reporters=[{use: json, path: " + out + "}]"});
  };
  BOOST_TEST(run("capitals.jsonl", jsonl_out).exit_code == 0);
  BOOST_TEST(run("capitals.csv", csv_out).exit_code == 0);
  auto a = json_lines(jsonl_out);
  auto b = json_lines(csv_out);
  BOOST_REQUIRE(!a.empty());
  BOOST_REQUIRE(!b.empty());
  BOOST_TEST(json::serialize(a.back().at("summary")) == json::serialize(b.back().at("summary")));
  std::filesystem::remove(jsonl_out);
  std::filesystem::remove(csv_out);
}

// The files resolver passes canonical-looking rows through after a key scan; the host's own
// validation is the one that catches a syntax error inside a section, as a dataset error.
BOOST_AUTO_TEST_CASE(a_canonical_looking_row_with_bad_json_is_a_dataset_error) {
  const std::string data = temp_path("bad.jsonl");
  const std::string out = temp_path("bad-out.jsonl");
  write_file(data,
             "{\"inputs\":{\"input\":\"a\"},\"expectedOutputs\":{\"output\":\"a\"},\"actualOutputs\":{\"output\":\"a\"},\"metadata\":{}}\n"
             "{\"inputs\":{\"input\":tru},\"expectedOutputs\":{\"output\":\"a\"},\"actualOutputs\":{\"output\":\"a\"},\"metadata\":{}}\n");
  const std::string experiment = temp_path("bad.yaml");
  write_file(experiment, "name: bad\ndataset: " + data + "\ntask: replay\nevaluators: [exact_match]\nreporters: [{json: {path: " + out + "}}]\n");
  ProcessResult r = run_process({krino_binary(), "run", experiment});
  BOOST_TEST(r.exit_code == 1, r.out << r.err);
  auto events = json_lines(out);
  BOOST_REQUIRE(events.size() == 5u);  // run and experiment events around the two items
  BOOST_TEST(events[1].at("success").as_bool());
  const json::object& error = events[2].at("error").as_object();
  BOOST_TEST(error.at("stage").as_string() == "dataset");
  BOOST_TEST(error.at("code").as_string() == "INVALID_ARGUMENT");
  BOOST_TEST(std::string(error.at("message").as_string()).find("the record is not valid JSON") == 0, error);
  for (const auto& path : {data, out, experiment}) std::filesystem::remove(path);
}

BOOST_AUTO_TEST_CASE(run_started_names_an_evaluators_default_threshold) {
  const std::string data = temp_path("threshold.jsonl");
  const std::string out = temp_path("threshold-out.jsonl");
  const std::string exp = temp_path("threshold.yaml");
  write_file(data, "{\"input\":\"q\",\"expectedOutput\":\"a\",\"actualOutput\":\"a\"}\n");
  write_file(exp, "dataset: " + data + "\nevaluators: [exact_match, {contains: {name: c, threshold: 0.5, value: a}}]\n"
                  "reporters: [{json: {path: " + out + "}}]\n");
  const ProcessResult r = run_process({krino_binary(), "run", exp, "--plugins", "files,text,json"});
  BOOST_TEST(r.exit_code == 0, r.err);
  const auto events = json_lines(out);
  const json::array& evaluators = events.front().at("evaluators").as_array();
  BOOST_TEST(evaluators.at(0).at("threshold").to_number<double>() == 1.0);  // exact_match's schema default
  BOOST_TEST(evaluators.at(1).at("threshold").to_number<double>() == 0.5);
  for (const auto& path : {data, out, exp}) std::filesystem::remove(path);
}

BOOST_AUTO_TEST_CASE(sigint_flushes_the_json_reporter) {
  std::string out = temp_path("interrupted.jsonl");
  std::string exp = temp_path("slow.yaml");
  write_file(exp, "dataset: seq:1000000\nevaluators: [{echo_score: {max_sleep_ms: 3}}]\nparallelism: 4\n"
                  "reporters: [{json: {path: " + out + "}}]\n");
  ProcessOptions options;
  // The json reporter creates its file at start; by then items are flowing.
  options.interrupt_when = [&] { return std::filesystem::exists(out); };
  ProcessResult r = run_process({krino_binary(), "run", exp, "--plugin-dir", KRINO_TESTKIT_DIR, "--plugins", "testkit,json"},
                                options);
  BOOST_TEST(r.exit_code == 130, r.err);
  auto events = json_lines(out);  // every line parses: nothing half-written
  BOOST_REQUIRE(events.size() >= 3u);
  BOOST_TEST(events.front().at("event").as_string() == "run_started");
  BOOST_TEST(events[events.size() - 2].at("status").as_string() == "cancelled");
  BOOST_TEST(events.back().at("event").as_string() == "experiment_finished");
  std::filesystem::remove(out);
  std::filesystem::remove(exp);
}

BOOST_AUTO_TEST_CASE(the_out_of_tree_sdk_example_runs_in_krino_run) {
  std::string out = temp_path("wc.jsonl");
  std::string exp = temp_path("wc.yaml");
  write_file(exp, "dataset: " + source_path("datasets/capitals.jsonl") +
                      "\nevaluators: [{word_count: {max_words: 1}}]\nreporters: [{json: {path: " + out + "}}]\n"
                      "min_pass_rate: 0\n");
  ProcessResult r = run_process({krino_binary(), "run", exp, "--plugin-dir", KRINO_EXAMPLE_PLUGIN_DIR});
  BOOST_TEST(r.exit_code == 0, r.err);
  auto events = json_lines(out);
  BOOST_REQUIRE(events.size() == 13u);
  BOOST_TEST(events[0].at("evaluators").as_array()[0].as_object().at("component").as_string() ==
             "dev.krino.examples.word_count");
  size_t passed = 0;
  for (const auto& e : events) {
    if (e.at("event").as_string() == "item_finished") passed += e.at("success").as_bool();
  }
  BOOST_TEST(passed == 9u);  // "Rio de Janeiro" is three words
  std::filesystem::remove(out);
  std::filesystem::remove(exp);
}

BOOST_AUTO_TEST_SUITE_END()
