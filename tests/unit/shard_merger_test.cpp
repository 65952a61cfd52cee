#include "json_lines.hpp"
#include "krino/core/common/error.hpp"
#include <krino/event/item_finished.hpp>
#include "krino/core/shard/shard_merger.hpp"
#include "krino/core/statistics/experiment_statistics.hpp"
#include "krino/core/statistics/run_statistics.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
#include <krino/json_text.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace krino::core;
using krino::test::json_lines_of;
namespace json = boost::json;

namespace {

// Hand-written shard files, in the shape the runner writes them.
struct ShardWriter {
  std::string name = "exp";
  uint32_t runs = 1;
  uint32_t k = 1;
  uint32_t n = 2;
  std::string text;

  json::object shard() const { return json::object{{"index", k}, {"count", n}}; }
  ShardWriter& started(uint32_t run, const std::string& timestamp = "2026-01-01T00:00:00Z") {
    json::object e{{"event", "run_started"}, {"schema", "krino.event/1"}, {"run_index", run}, {"runs", runs},
                   {"experiment", json::object{{"name", name}}},
                   {"evaluators", json::array{json::object{{"name", "e"}}}}, {"timestamp", timestamp}, {"shard", shard()}};
    text += json::serialize(e) + "\n";
    return *this;
  }
  ShardWriter& item(uint32_t run, uint64_t index, double score, const JudgeUsage& judge = {}) {
    std::string line = R"({"event":"item_finished","schema":"krino.event/1","run_index":)" + std::to_string(run) +
                       R"(,"index":)" + std::to_string(index) + R"(,"id":null,"success":)" +
                       (score >= 0.5 ? "true" : "false") + R"(,"error":null,"results":[{"name":"e","score":)";
    krino::json::append_double(line, score);
    line += R"(,"success":)" + std::string(score >= 0.5 ? "true" : "false") + R"(,"threshold":0.5,"reason":"r","metadata":{}}])";
    if (!judge.empty()) {
      json::object j = krino::event::judge_usage_json(judge, krino::event::JudgeUsageForm::item);
      j["byEvaluator"] = json::object{{"e", krino::event::judge_usage_json(judge, krino::event::JudgeUsageForm::item)}};
      line += R"(,"judge":)";
      krino::json::append_compact_json(line, j);
    }
    text += line + R"(,"durationMs":1.0,"inputs":{},"expectedOutputs":{},"actualOutputs":{},"metadata":{}})" + "\n";
    return *this;
  }
  ShardWriter& finished(uint32_t run, const std::string& status = "completed") {
    text += json::serialize(json::object{{"event", "run_finished"}, {"schema", "krino.event/1"}, {"run_index", run},
                                         {"status", status}, {"durationMs", 10.0 * (k + 1)}, {"summary", json::object{}},
                                         {"shard", shard()}}) + "\n";
    return *this;
  }
  ShardWriter& experiment_finished(const std::string& status = "completed") {
    text += json::serialize(json::object{{"event", "experiment_finished"}, {"schema", "krino.event/1"},
                                         {"run_index", nullptr}, {"status", status}, {"durationMs", 20.0 * (k + 1)},
                                         {"summary", json::object{}}, {"shard", shard()}}) + "\n";
    return *this;
  }
};

struct Files {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("krino-shard-unit-" + std::to_string(::getpid()));
  Files() { std::filesystem::create_directories(dir); }
  ~Files() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = (dir / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
};

JudgeUsage usage(double cost, int64_t tokens, bool unpriced = false) {
  JudgeUsage u;
  u.calls = 1;
  u.tokens_in = tokens;
  u.tokens_out = tokens / 2;
  u.cost_usd = cost;
  u.unpriced_tokens = unpriced;
  return u;
}

// The message of the KrinoError `f` throws, checked for its kind.
template <class F>
std::string error_of(F&& f, ErrorKind kind) {
  try {
    f();
  } catch (const KrinoError& e) {
    BOOST_TEST((e.kind() == kind), e.what());
    return e.what();
  }
  BOOST_ERROR("no error");
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shard_merger)

BOOST_AUTO_TEST_CASE(item_lines_give_back_the_judge_usage_to_the_last_bit) {
  JudgeUsage u = usage(0.1 + 0.2, 1234, true);  // 0.30000000000000004: its rounded form would lose the tail
  ShardWriter w;
  w.item(0, 7, 0.3, u);
  const krino::event::ItemFinished item = krino::event::read_item_finished(w.text);
  BOOST_TEST(item.index == 7u);
  BOOST_TEST(!item.success);
  BOOST_TEST(!item.error);
  BOOST_TEST_REQUIRE(item.results.size() == 1u);
  BOOST_TEST(*item.results[0].score == 0.3);
  BOOST_TEST_REQUIRE(item.judge.has_value());
  BOOST_TEST(*item.judge->cost_usd == 0.1 + 0.2);
  BOOST_TEST(item.judge->unpriced_tokens);
  BOOST_TEST(*item.judge->tokens_in == 1234);
  BOOST_TEST_REQUIRE(item.judge_by_evaluator.size() == 1u);
  BOOST_TEST(item.judge_by_evaluator[0].first == "e");
  BOOST_TEST(*item.judge_by_evaluator[0].second.cost_usd == 0.1 + 0.2);
}

BOOST_AUTO_TEST_CASE(merged_summaries_equal_the_statistics_of_the_items_in_dataset_order) {
  // Two runs; shard 1 holds the even indices, shard 2 the odd ones. Costs with long binary tails.
  const std::vector<double> scores = {0.1, 0.7, 0.35, 1.0, 0.0, 0.55, 0.9};
  auto cost_of = [](uint64_t i) { return 1e-7 * static_cast<double>(i + 1) / 3.0; };
  Files files;
  ShardWriter a, b;
  a.runs = b.runs = 2;
  b.k = 2;
  RunStatistics expected_runs[2] = {RunStatistics({"e"}), RunStatistics({"e"})};
  ExperimentStatistics expected({"e"});
  for (uint32_t run = 0; run < 2; ++run) {
    a.started(run, "2026-01-01T00:00:05Z");
    b.started(run, "2026-01-01T00:00:03Z");
    for (uint64_t i = 0; i < scores.size(); ++i) {
      const double s = run == 0 ? scores[i] : 1.0 - scores[i];
      (i % 2 == 0 ? a : b).item(run, i, s, usage(cost_of(i), static_cast<int64_t>(i) * 10));
      expected_runs[run].add_item(s >= 0.5, false, {ScoreRecord{"e", s, s >= 0.5}});
      expected_runs[run].add_judge(usage(cost_of(i), static_cast<int64_t>(i) * 10), {{"e", usage(cost_of(i), static_cast<int64_t>(i) * 10)}});
    }
    a.finished(run);
    b.finished(run);
    expected.add_run(expected_runs[run]);
  }
  a.experiment_finished();
  b.experiment_finished();

  std::ostringstream out;
  const MergeReport report = merge_shards({{files.write("b", b.text), files.write("a", a.text)}, false}, out);
  BOOST_TEST(report.items == 14u);
  const auto events = json_lines_of(out.str());
  BOOST_TEST_REQUIRE(events.size() == 2u * 9u + 1u);
  for (uint32_t run = 0; run < 2; ++run) {
    const auto& started = events[run * 9];
    BOOST_TEST(started.at("timestamp").as_string() == "2026-01-01T00:00:03Z");  // the earliest shard
    BOOST_TEST(!started.contains("shard"));
    for (uint64_t i = 0; i < 7; ++i) BOOST_TEST(events[run * 9 + 1 + i].at("index").as_int64() == static_cast<int64_t>(i));
    const auto& finished = events[run * 9 + 8];
    BOOST_TEST(finished.at("summary") == json::value(expected_runs[run].summary()));
    BOOST_TEST(finished.at("durationMs").as_double() == 30.0);  // the longest shard
  }
  BOOST_TEST(events.back().at("summary") == json::value(expected.summary()));
  BOOST_TEST(events.back().at("durationMs").as_double() == 60.0);
  BOOST_TEST(events.back().at("summary").at("judge").at("costUsd").as_double() == expected.summary().at("judge").at("costUsd").as_double());
}

BOOST_AUTO_TEST_CASE(events_of_unknown_types_are_skipped) {
  Files files;
  ShardWriter a, b;
  b.k = 2;
  a.started(0).item(0, 0, 1.0);
  a.text += R"({"event":"progress","schema":"krino.event/1","run_index":0})" "\n";
  a.finished(0).experiment_finished();
  b.started(0).item(0, 1, 1.0).finished(0).experiment_finished();
  std::ostringstream out;
  BOOST_TEST(merge_shards({{files.write("a", a.text), files.write("b", b.text)}, false}, out).items == 2u);
}

BOOST_AUTO_TEST_CASE(files_that_do_not_belong_together_are_refused) {
  Files files;
  ShardWriter a, b;
  b.k = 2;
  a.started(0).item(0, 0, 1.0).finished(0).experiment_finished();
  b.name = "another";
  b.started(0).item(0, 1, 1.0).finished(0).experiment_finished();
  std::ostringstream out;
  auto merge = [&](std::vector<std::string> inputs) { return [&out, inputs] { merge_shards({inputs, false}, out); }; };
  const std::string pa = files.write("a", a.text);
  BOOST_TEST(error_of(merge({pa, files.write("b", b.text)}), ErrorKind::usage).find("different experiments") != std::string::npos);

  ShardWriter runs;
  runs.k = 2;
  runs.runs = 2;
  runs.started(0);
  BOOST_TEST(error_of(merge({pa, files.write("r", runs.text)}), ErrorKind::usage).find("different run counts") != std::string::npos);

  ShardWriter overlap;
  overlap.k = 2;
  overlap.started(0).item(0, 0, 1.0).finished(0).experiment_finished();
  BOOST_TEST(error_of(merge({pa, files.write("o", overlap.text)}), ErrorKind::usage).find("is in two shards") != std::string::npos);

  ShardWriter disorder;
  disorder.k = 2;
  disorder.started(0).item(0, 5, 1.0).item(0, 3, 1.0).finished(0).experiment_finished();
  BOOST_TEST(error_of(merge({pa, files.write("d", disorder.text)}), ErrorKind::runtime).find("dataset order") != std::string::npos);

  ShardWriter cancelled;
  cancelled.k = 2;
  cancelled.started(0).item(0, 1, 1.0).finished(0, "cancelled").experiment_finished("cancelled");
  BOOST_TEST(error_of(merge({pa, files.write("c", cancelled.text)}), ErrorKind::runtime).find("run that shard again") != std::string::npos);

  ShardWriter unfinished;
  unfinished.k = 2;
  unfinished.started(0).item(0, 1, 1.0);
  BOOST_TEST(error_of(merge({pa, files.write("u", unfinished.text)}), ErrorKind::runtime).find("did not finish") != std::string::npos);

  ShardWriter appended;
  appended.k = 2;
  appended.started(0).item(0, 1, 1.0).finished(0).experiment_finished().started(0);
  BOOST_TEST(error_of(merge({pa, files.write("p", appended.text)}), ErrorKind::usage).find("one experiment per file") != std::string::npos);

  BOOST_TEST(error_of(merge({pa, (files.dir / "absent").string()}), ErrorKind::runtime).find("cannot open") != std::string::npos);
  BOOST_TEST(error_of(merge({pa, files.write("text", "hello\n")}), ErrorKind::runtime).find("not a JSON object") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_failed_merge_leaves_no_output_file) {
  Files files;
  ShardWriter a;
  a.started(0).item(0, 0, 1.0).finished(0).experiment_finished();
  const std::string output = (files.dir / "merged.jsonl").string();
  BOOST_CHECK_THROW(merge_shard_files({{files.write("a", a.text)}, false}, output), KrinoError);
  BOOST_TEST(!std::filesystem::exists(output));
  merge_shard_files({{files.write("a", a.text)}, true}, output);
  BOOST_TEST(std::filesystem::exists(output));
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(files.dir)) ++entries;
  BOOST_TEST(entries == 2u);  // the shard and the merged file: no temporary left over
}

BOOST_AUTO_TEST_CASE(a_failed_merge_keeps_an_existing_output_and_an_unwritable_one_is_named) {
  Files files;
  ShardWriter a;
  a.started(0).item(0, 0, 1.0).finished(0).experiment_finished();
  const std::string shard = files.write("a", a.text);
  const std::string output = files.write("merged.jsonl", "previous merge\n");
  BOOST_CHECK_THROW(merge_shard_files({{shard}, false}, output), KrinoError);  // shard 2/2 missing
  std::ifstream in(output, std::ios::binary);
  std::ostringstream kept;
  kept << in.rdbuf();
  BOOST_TEST(kept.str() == "previous merge\n");

  const std::string under_a_file = shard + "/merged.jsonl";  // its "directory" is a regular file
  BOOST_TEST(error_of([&] { merge_shard_files({{shard}, true}, under_a_file); }, ErrorKind::runtime).find(under_a_file) !=
             std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
