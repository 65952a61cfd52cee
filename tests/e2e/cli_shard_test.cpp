// `krino run --shard K/N` and `krino merge` end to end: an experiment run once, and as four shards
// merged back, must report the same items and exactly the same summaries.
#include "json_lines.hpp"
#include "process.hpp"
#include "test_paths.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <set>

using namespace krino::test;
namespace json = boost::json;

namespace {

// A scratch directory with an experiment whose json reporter writes `<dir>/<name>.jsonl` (set per run).
struct ShardedExperiment {
  std::filesystem::path dir = temp_path("shard-e2e");
  std::string file = (dir / "exp.yaml").string();

  explicit ShardedExperiment(const std::string& body) {
    std::filesystem::create_directories(dir);
    write_file(file, body);
  }
  ~ShardedExperiment() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::string out(const std::string& name) const { return (dir / (name + ".jsonl")).string(); }

  ProcessResult run(const std::string& output, std::vector<std::string> extra = {}) const {
    std::vector<std::string> argv = {krino_binary(), "run", file, "--plugin-dir", KRINO_TESTKIT_DIR,
                                     "--plugins", "testkit,json", "--set", "reporters=[{json: {path: '" + output + "'}}]"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_process(argv);
  }
  ProcessResult merge(std::vector<std::string> inputs, std::vector<std::string> extra = {}) const {
    std::vector<std::string> argv = {krino_binary(), "merge", "-o", out("merged")};
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.insert(argv.end(), inputs.begin(), inputs.end());
    return run_process(argv);
  }
};

// Items with ids (every third), failing scores, evaluator errors on two inputs, malformed records,
// two evaluators, three runs, and evaluators that sleep so items finish out of order.
const char* kExperiment =
    "name: sharded\n"
    "dataset: {uri: 'seq:60', options: {score_from_index: true, bad_every: 13, id_every: 3}}\n"
    "evaluators:\n"
    "  - {echo_score: {threshold: 0.5, throw_on: [7, 22], max_sleep_ms: 2}}\n"
    "  - {echo_score: {name: strict, threshold: 0.9, fail_on: [30]}}\n"
    "runs: 3\n"
    "parallelism: 4\n";

// The assignment rule as docs/sharding.md states it, written independently of krino's code.
int64_t documented_shard(const json::value& id, int64_t index, int64_t count) {
  if (!id.is_string()) return index % count + 1;
  uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : std::string(id.as_string())) h = (h ^ c) * 1099511628211ULL;
  return static_cast<int64_t>(h % static_cast<uint64_t>(count)) + 1;
}

void drop(json::object& o, std::initializer_list<const char*> keys) {
  for (const char* k : keys) o.erase(k);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_shard)

BOOST_AUTO_TEST_CASE(four_merged_shards_equal_one_unsharded_run) {
  ShardedExperiment e(kExperiment);
  ProcessResult single = e.run(e.out("single"));
  BOOST_TEST(single.exit_code == 1, single.err);  // items fail: the pass rate is under 1.0

  std::vector<std::string> shards;
  std::set<std::pair<int64_t, int64_t>> seen;  // (run, index) over every shard
  for (int k = 1; k <= 4; ++k) {
    const std::string path = e.out("shard" + std::to_string(k));
    ProcessResult r = e.run(path, {"--shard", std::to_string(k) + "/4"});
    BOOST_TEST((r.exit_code == 0 || r.exit_code == 1), r.err);
    for (const auto& ev : json_lines(path)) {
      const std::string kind(ev.at("event").as_string());
      if (kind == "item_finished") {
        BOOST_TEST(seen.emplace(ev.at("run_index").as_int64(), ev.at("index").as_int64()).second);
        BOOST_TEST(documented_shard(ev.at("id"), ev.at("index").as_int64(), 4) == k);
      } else {
        BOOST_TEST(ev.at("shard") == json::parse(R"({"index":)" + std::to_string(k) + R"(,"count":4})"));
      }
    }
    shards.push_back(path);
  }
  BOOST_TEST(seen.size() == 3u * 60u);  // every item of every run in exactly one shard

  // Given out of order: the merge sorts shards by their index.
  ProcessResult merged = e.merge({shards[2], shards[0], shards[3], shards[1]});
  BOOST_TEST_REQUIRE(merged.exit_code == 0, merged.err);

  auto expected = json_lines(e.out("single"));
  auto actual = json_lines(e.out("merged"));
  BOOST_TEST_REQUIRE(actual.size() == expected.size());
  BOOST_TEST(expected.size() == 3u * (60u + 2u) + 1u);
  for (size_t i = 0; i < expected.size(); ++i) {
    json::object want = expected[i];
    json::object got = actual[i];
    const std::string kind(want.at("event").as_string());
    BOOST_TEST_CONTEXT("line " << i + 1 << " (" << kind << ")") {
      BOOST_TEST(got.at("event") == want.at("event"));
      if (kind == "run_finished" || kind == "experiment_finished") {
        // Exactly equal, every number to the last bit: the merge recomputes, it does not average.
        BOOST_TEST(got.at("summary") == want.at("summary"), json::serialize(got.at("summary")) << "\n  vs "
                                                                 << json::serialize(want.at("summary")));
        BOOST_TEST(got.at("status") == want.at("status"));
        BOOST_TEST(got.at("merged") == json::parse(R"({"count":4,"missing":[]})"));
      } else if (kind == "item_finished") {
        drop(want, {"durationMs"});
        drop(got, {"durationMs"});
        BOOST_TEST(got == want, json::serialize(got) << "\n  vs " << json::serialize(want));
      } else {
        BOOST_TEST(got.at("merged") == json::parse(R"({"count":4,"missing":[]})"));
        drop(want, {"timestamp"});
        drop(got, {"timestamp", "merged"});
        BOOST_TEST(got == want);
      }
    }
  }

  // The fixture exercises what it claims to: failures, errors and several runs.
  const json::object& summary = expected.back().at("summary").as_object();
  BOOST_TEST(summary.at("runCount").as_int64() == 3);
  BOOST_TEST(summary.at("errorCount").to_number<double>() > 0.0);
  BOOST_TEST(summary.at("passCount").to_number<double>() > 0.0);
  BOOST_TEST(summary.at("failCount").to_number<double>() > summary.at("errorCount").to_number<double>());
}

BOOST_AUTO_TEST_CASE(a_bad_shard_argument_is_a_usage_error) {
  ShardedExperiment e("dataset: seq:4\nevaluators: [echo_score]\n");
  for (const char* bad : {"0/4", "5/4", "2", "a/b", "1/0"}) {
    ProcessResult r = e.run(e.out("x"), {"--shard", bad});
    BOOST_TEST(r.exit_code == 2, bad);
    BOOST_TEST(r.err.find("--shard") != std::string::npos, r.err);
  }
}

BOOST_AUTO_TEST_CASE(an_empty_shard_passes_and_merges) {
  // Two items over three shards: one shard owns nothing, which is no failure.
  ShardedExperiment e("name: tiny\ndataset: {uri: 'seq:2', options: {id_every: 0}}\nevaluators: [echo_score]\n");
  std::vector<std::string> shards;
  for (int k = 1; k <= 3; ++k) {
    shards.push_back(e.out("s" + std::to_string(k)));
    ProcessResult r = e.run(shards.back(), {"--shard", std::to_string(k) + "/3"});
    BOOST_TEST(r.exit_code == 0, r.err);
  }
  BOOST_TEST(json_lines(shards[2]).size() == 3u);  // run_started, run_finished, experiment_finished
  ProcessResult merged = e.merge(shards);
  BOOST_TEST_REQUIRE(merged.exit_code == 0, merged.err);
  auto events = json_lines(e.out("merged"));
  BOOST_TEST_REQUIRE(events.size() == 5u);
  BOOST_TEST(events[1].at("index").as_int64() == 0);
  BOOST_TEST(events[2].at("index").as_int64() == 1);
  BOOST_TEST(events.back().at("summary").at("totalCount").as_int64() == 2);
}

BOOST_AUTO_TEST_CASE(merge_refuses_files_that_do_not_belong_together) {
  ShardedExperiment e("name: parts\ndataset: seq:8\nevaluators: [echo_score]\n");
  const std::string s1 = e.out("s1"), s2 = e.out("s2"), other = e.out("other"), plain = e.out("plain");
  BOOST_TEST(e.run(s1, {"--shard", "1/2"}).exit_code == 0);
  BOOST_TEST(e.run(s2, {"--shard", "2/2"}).exit_code == 0);
  BOOST_TEST(e.run(other, {"--shard", "2/3"}).exit_code == 0);
  BOOST_TEST(e.run(plain).exit_code == 0);

  ProcessResult missing = e.merge({s1});
  BOOST_TEST(missing.exit_code == 2);
  BOOST_TEST(missing.err.find("missing shard 2/2") != std::string::npos, missing.err);
  BOOST_TEST(!std::filesystem::exists(e.out("merged")));  // nothing half-written is left behind

  ProcessResult twice = e.merge({s1, s1});
  BOOST_TEST(twice.exit_code == 2);
  BOOST_TEST(twice.err.find("given twice") != std::string::npos, twice.err);

  ProcessResult counts = e.merge({s1, other});
  BOOST_TEST(counts.exit_code == 2);
  BOOST_TEST(counts.err.find("different numbers of shards") != std::string::npos, counts.err);

  ProcessResult unsharded = e.merge({s1, plain});
  BOOST_TEST(unsharded.exit_code == 2);
  BOOST_TEST(unsharded.err.find("not written by a sharded run") != std::string::npos, unsharded.err);

  ProcessResult partial = e.merge({s1}, {"--allow-missing"});
  BOOST_TEST(partial.exit_code == 0, partial.err);
  BOOST_TEST(partial.err.find("missing") != std::string::npos, partial.err);
  auto events = json_lines(e.out("merged"));
  BOOST_TEST(events.back().at("merged") == json::parse(R"({"count":2,"missing":[2]})"));
  BOOST_TEST(events.back().at("summary").at("totalCount").as_int64() == 4);

  // A shard killed mid-write: its last line has no line feed.
  std::string cut = read_file(s2);
  cut.resize(cut.size() - 10);
  write_file(s2, cut);
  ProcessResult interrupted = e.merge({s1, s2});
  BOOST_TEST(interrupted.exit_code == 3);
  BOOST_TEST(interrupted.err.find("incomplete") != std::string::npos, interrupted.err);
}

BOOST_AUTO_TEST_SUITE_END()
