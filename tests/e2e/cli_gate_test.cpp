// The regression gate end to end: `krino run` with a `gate:` section, `krino gate` and
// `krino compare` on real files written by real runs.
#include "process.hpp"
#include "test_paths.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>

using namespace krino::test;
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

// Local (not CI) and no update request, whatever the environment running the tests says.
const std::vector<std::string> kLocal = {"CI=", "GITHUB_ACTIONS=", "KRINO_UPDATE_BASELINE="};

// An experiment over 20 generated items scored 0, .25, .5, .75, 1 (repeating), in its own directory.
struct GatedExperiment {
  fs::path dir = temp_path("gate-e2e");
  fs::path file = dir / "exp.yaml";
  fs::path events = dir / "events.jsonl";
  fs::path baseline = dir / "baselines" / "demo.json";
  fs::path verdict = dir / "verdicts" / "demo.json";
  explicit GatedExperiment(const std::string& gate = "{verdict_dir: verdicts}", const std::string& name = "name: demo\n") {
    fs::remove_all(dir);
    fs::create_directories(dir);
    write_file(file.string(), name + "dataset: {uri: 'seq:20', options: {score_from_index: true}}\n"
                                     "evaluators: [echo_score]\nmin_pass_rate: 0\n"
                                     "reporters: [{capture: {path: " + events.string() + "}}]\ngate: " + gate + "\n");
  }
  ~GatedExperiment() { fs::remove_all(dir); }
  ProcessResult run(std::vector<std::string> extra = {}, std::vector<std::string> env = kLocal) const {
    std::vector<std::string> argv = {krino_binary(), "run", file.string(), "--plugin-dir", KRINO_TESTKIT_DIR, "--plugins", "testkit"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    ProcessOptions options;
    options.environment = std::move(env);
    return run_process(argv, options);
  }
  json::object verdict_json() const { return json::parse(read_file(verdict.string())).as_object(); }
};

ProcessResult krino_cli(std::vector<std::string> args, std::vector<std::string> env = kLocal) {
  args.insert(args.begin(), krino_binary());
  ProcessOptions options;
  options.environment = std::move(env);
  return run_process(args, options);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_gate)

BOOST_AUTO_TEST_CASE(run_creates_the_baseline_then_gates_against_it) {
  GatedExperiment e;
  ProcessResult first = e.run();
  BOOST_TEST(first.exit_code == 0, first.err);
  BOOST_TEST(fs::exists(e.baseline));
  BOOST_TEST(first.err.find("Baseline created at " + fs::absolute(e.baseline).lexically_normal().string()) != std::string::npos,
             first.err);

  ProcessResult same = e.run();
  BOOST_TEST(same.exit_code == 0, same.err);
  BOOST_TEST(e.verdict_json().at("status").as_string() == "PASS");

  // A stricter threshold turns 8 passing items into failures: McNemar p = 0.013.
  ProcessResult stricter = e.run({"--set", "evaluators.0.threshold=0.8"});
  BOOST_TEST(stricter.exit_code == 1, stricter.err);
  BOOST_TEST(stricter.err.find("Regression gate FAILED") != std::string::npos, stricter.err);
  BOOST_TEST(stricter.err.find("KRINO_UPDATE_BASELINE=1 krino run " + e.file.string()) != std::string::npos, stricter.err);
  const json::object verdict = e.verdict_json();
  BOOST_TEST(verdict.at("status").as_string() == "FAIL");
  BOOST_TEST(verdict.at("passToFail").to_number<int>() == 8);
  BOOST_TEST(verdict.at("warnings").as_array().size() == 1u);  // the threshold change

  // Accepting the change: the update flag rewrites the baseline, and the next run passes.
  std::vector<std::string> update = kLocal;
  update.back() = "KRINO_UPDATE_BASELINE=true";
  ProcessResult accepted = e.run({"--set", "evaluators.0.threshold=0.8"}, update);
  BOOST_TEST(accepted.exit_code == 0, accepted.err);
  BOOST_TEST(e.verdict_json().at("status").as_string() == "UPDATED");
  ProcessResult after = e.run({"--set", "evaluators.0.threshold=0.8"});
  BOOST_TEST(after.exit_code == 0, after.err);
}

BOOST_AUTO_TEST_CASE(on_ci_without_a_baseline_the_gate_passes_and_writes_nothing) {
  GatedExperiment e;
  ProcessResult r = e.run({}, {"CI=true", "KRINO_UPDATE_BASELINE="});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(!fs::exists(e.baseline));
  BOOST_TEST(e.verdict_json().at("status").as_string() == "NO_BASELINE");
  BOOST_TEST(r.err.find("measuring nothing") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(bootstrap_passes_false_fails_the_first_run) {
  GatedExperiment e("{verdict_dir: verdicts, bootstrap_passes: false}");
  BOOST_TEST(e.run().exit_code == 1);
  BOOST_TEST(fs::exists(e.baseline));
  BOOST_TEST(e.run().exit_code == 0);
}

BOOST_AUTO_TEST_CASE(an_unnamed_experiment_needs_an_explicit_baseline) {
  GatedExperiment unnamed("{}", "");
  ProcessResult r = unnamed.run();
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("no name") != std::string::npos, r.err);
  GatedExperiment explicit_file("{baseline: b.json, verdict_dir: verdicts}", "");
  BOOST_TEST(explicit_file.run().exit_code == 0);
  BOOST_TEST(fs::exists(explicit_file.dir / "b.json"));
}

BOOST_AUTO_TEST_CASE(krino_gate_and_krino_compare_on_run_files) {
  GatedExperiment e;
  BOOST_REQUIRE(e.run().exit_code == 0);
  const fs::path good = e.dir / "good.jsonl";
  fs::copy_file(e.events, good);
  ProcessResult stricter = e.run({"--set", "evaluators.0.threshold=0.8", "--set", "gate=false"});
  BOOST_REQUIRE(stricter.exit_code == 0);
  const std::string worse = e.events.string();
  const std::string verdicts = (e.dir / "gate-verdicts").string();

  ProcessResult pass = krino_cli({"gate", "--baseline", e.baseline.string(), good.string(), "--verdict-dir", verdicts});
  BOOST_TEST(pass.exit_code == 0, pass.err);
  BOOST_TEST(pass.out.find("gate: PASS") != std::string::npos, pass.out);
  ProcessResult fail = krino_cli({"gate", "--baseline", e.baseline.string(), worse, "--verdict-dir", verdicts, "--json"});
  BOOST_TEST(fail.exit_code == 1, fail.err);
  BOOST_TEST(json::parse(fail.out).at("status").as_string() == "FAIL");
  BOOST_TEST(fs::exists(fs::path(verdicts) / "demo.json"));
  ProcessResult recorded = krino_cli({"gate", "-b", e.baseline.string(), worse, "--verdict-dir", verdicts, "--no-fail-on-regression"});
  BOOST_TEST(recorded.exit_code == 0, recorded.err);
  ProcessResult bad = krino_cli({"gate", "-b", e.baseline.string(), worse, "--alpha", "2"});
  BOOST_TEST(bad.exit_code == 2, bad.err);
  ProcessResult missing = krino_cli({"gate", "-b", e.baseline.string(), (e.dir / "nope.jsonl").string()});
  BOOST_TEST(missing.exit_code == 3, missing.err);

  ProcessResult text = krino_cli({"compare", good.string(), worse});
  BOOST_TEST(text.exit_code == 0, text.err);
  BOOST_TEST(text.out.find("Items that flipped (8)") != std::string::npos, text.out);
  BOOST_TEST(text.out.find("pass -> fail") != std::string::npos, text.out);
  ProcessResult capped = krino_cli({"compare", good.string(), worse, "--max-items", "3"});
  BOOST_TEST(capped.out.find("and 5 more") != std::string::npos, capped.out);
  ProcessResult as_json = krino_cli({"compare", e.baseline.string(), worse, "--format", "json"});
  BOOST_TEST(as_json.exit_code == 0, as_json.err);
  const json::value doc = json::parse(as_json.out);
  BOOST_TEST(doc.at("flippedCount").to_number<int>() == 8);
  BOOST_TEST(doc.at("passRate").at("test").as_string() == "mcnemar");
  BOOST_TEST(doc.at("evaluators").as_array()[0].at("name").as_string() == "echo_score");
  ProcessResult markdown = krino_cli({"compare", good.string(), worse, "-f", "markdown"});
  BOOST_TEST(markdown.out.find("| **pass rate** |") != std::string::npos, markdown.out);
  BOOST_TEST(krino_cli({"compare", good.string(), worse, "--fail-on-regression"}).exit_code == 1);
  BOOST_TEST(krino_cli({"compare", good.string(), good.string(), "--fail-on-regression"}).exit_code == 0);
}

BOOST_AUTO_TEST_SUITE_END()
