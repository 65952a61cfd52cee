// The regression gate's decision order (docs/gate.md), its verdicts and every option of GateConfig.
#include "gate_test_support.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/gate/baseline_file.hpp"
#include "krino/core/gate/regression_gate.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <fstream>

using namespace krino::core;
using namespace krino::test;
namespace json = boost::json;

namespace {

// A run of `scores.size()` items with evaluators "quality" (the given scores) and "format" (1.0).
RunProjection run_of(const std::vector<double>& scores, bool with_format = true, bool with_ids = false) {
  RunProjectionBuilder builder;
  builder.add_event(run_started(0, "demo"), "t");
  for (size_t i = 0; i < scores.size(); ++i) {
    std::vector<ResultSpec> results = {{"quality", scores[i], scores[i] >= 0.5}};
    if (with_format) results.push_back({"format", 1.0, true});
    builder.add_event(item_event(0, i, results, with_ids ? std::optional<std::string>("id-" + std::to_string(i)) : std::nullopt),
                      "t");
  }
  return builder.finish();
}

struct Fixture {
  TempDir dir;
  GateConfig config;
  GateEnvironment local;
  Fixture() {
    config.baseline = dir.path / "baselines" / "demo.json";
    config.verdict_dir = dir.path / "verdicts";
  }
  GateVerdict gate(const RunProjection& run, GateEnvironment env) {
    return run_regression_gate(run, config, env, "KRINO_UPDATE_BASELINE=1 krino run demo.yaml");
  }
  GateVerdict gate(const RunProjection& run) { return gate(run, local); }
  json::object verdict_file() const {
    std::ifstream in(config.verdict_dir / "demo.json");
    return json::parse(std::string(std::istreambuf_iterator<char>(in), {})).as_object();
  }
};

std::vector<double> steady(size_t n, double score = 0.8) { return std::vector<double>(n, score); }

// setenv for the scope of a test.
struct ScopedEnv {
  std::string name;
  ScopedEnv(std::string n, const char* value) : name(std::move(n)) { ::setenv(name.c_str(), value, 1); }
  ~ScopedEnv() { ::unsetenv(name.c_str()); }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(gate_decision, Fixture)

BOOST_AUTO_TEST_CASE(truthy_values) {
  for (const char* yes : {"true", "TRUE", "1", "yes", "Yes"}) BOOST_TEST(is_truthy(yes));
  for (const char* no : {"false", "0", "no", "", "y"}) BOOST_TEST(!is_truthy(no));
  BOOST_TEST(!is_truthy(nullptr));
}

BOOST_AUTO_TEST_CASE(environment_detection_reads_ci_github_actions_and_the_update_flag) {
  ::unsetenv("CI");
  ::unsetenv("GITHUB_ACTIONS");
  ::unsetenv("KRINO_UPDATE_BASELINE");
  BOOST_TEST(!GateEnvironment::from_process().ci);
  {
    ScopedEnv ci("GITHUB_ACTIONS", "true");
    BOOST_TEST(GateEnvironment::from_process().ci);
  }
  {
    ScopedEnv ci("CI", "0");
    BOOST_TEST(!GateEnvironment::from_process().ci);
  }
  ScopedEnv update("KRINO_UPDATE_BASELINE", "yes");
  BOOST_TEST(GateEnvironment::from_process().update_requested);
}

BOOST_AUTO_TEST_CASE(no_baseline_on_ci_passes_and_writes_no_baseline) {
  GateEnvironment ci;
  ci.ci = true;
  const GateVerdict v = gate(run_of(steady(10)), ci);
  BOOST_TEST(v.status == GateStatus::no_baseline);
  BOOST_TEST(v.passed);
  BOOST_TEST(!v.fails_build);
  BOOST_TEST(!std::filesystem::exists(config.baseline));
  BOOST_TEST(verdict_file().at("status").as_string() == "NO_BASELINE");
  BOOST_TEST(v.message.find("measuring nothing") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(no_baseline_locally_writes_it_and_passes) {
  const GateVerdict v = gate(run_of(steady(10)));
  BOOST_TEST(v.status == GateStatus::no_baseline);
  BOOST_TEST(!v.fails_build);
  BOOST_TEST(v.baseline_written);
  BOOST_TEST(std::filesystem::exists(config.baseline));
  const std::string absolute = std::filesystem::absolute(config.baseline).lexically_normal().string();
  BOOST_TEST(v.message == "Baseline created at " + absolute + ". Commit it so the gate compares against it from now on.");
  // The next run compares.
  BOOST_TEST(gate(run_of(steady(10))).status == GateStatus::pass);
}

BOOST_AUTO_TEST_CASE(bootstrap_passes_false_fails_once) {
  config.bootstrap_passes = false;
  const GateVerdict first = gate(run_of(steady(10)));
  BOOST_TEST(first.fails_build);
  BOOST_TEST(first.message.find("Review and commit it, then re-run.") != std::string::npos);
  BOOST_TEST(std::filesystem::exists(config.baseline));
  BOOST_TEST(!gate(run_of(steady(10))).fails_build);
}

BOOST_AUTO_TEST_CASE(a_run_that_cannot_be_baselined_leaves_no_file) {
  RunProjectionBuilder builder;
  builder.add_event(item_event(0, 0, {}, std::nullopt, nullptr, std::string("boom")), "t");
  BOOST_CHECK_THROW(gate(builder.finish()), KrinoError);
  BOOST_TEST(!std::filesystem::exists(config.baseline));
}

BOOST_AUTO_TEST_CASE(update_overwrites_and_passes_without_comparing) {
  gate(run_of(steady(10, 0.9)));
  std::vector<double> worse = steady(10, 0.1);
  config.update_baseline = true;
  const GateVerdict v = gate(run_of(worse));
  BOOST_TEST(v.status == GateStatus::updated);
  BOOST_TEST(!v.fails_build);
  BOOST_TEST(*read_baseline(config.baseline).items[0].evaluators[1].score == 0.1);
  // The environment flag does the same.
  config.update_baseline = false;
  GateEnvironment env;
  env.update_requested = true;
  BOOST_TEST(gate(run_of(steady(10, 0.3)), env).status == GateStatus::updated);
  BOOST_TEST(*read_baseline(config.baseline).items[0].evaluators[1].score == 0.3);
}

BOOST_AUTO_TEST_CASE(a_broad_regression_fails_and_the_verdict_is_on_disk) {
  gate(run_of(steady(30, 0.8)));
  std::vector<double> worse = steady(30, 0.8);
  for (size_t i = 0; i < 30; ++i) worse[i] = 0.72;  // everyone a little worse: guard 1, not guard 2
  const GateVerdict v = gate(run_of(worse));
  BOOST_TEST(v.status == GateStatus::fail);
  BOOST_TEST(!v.passed);
  BOOST_TEST(v.fails_build);
  BOOST_TEST(v.message.find("KRINO_UPDATE_BASELINE=1 krino run demo.yaml") != std::string::npos);
  BOOST_TEST(v.message.find("'quality' fell from 0.8 to 0.72") != std::string::npos);
  const json::object file = verdict_file();
  BOOST_TEST(file.at("status").as_string() == "FAIL");
  BOOST_TEST(file.at("passed").as_bool() == false);
  BOOST_TEST(file.at("pairing").as_string() == "positional");
  BOOST_TEST(file.at("regressedEvaluators").as_array().size() == 1u);
  BOOST_TEST(file.at("regressedEvaluators").as_array()[0].at("evaluator").as_string() == "quality");
  BOOST_TEST(file.at("regressedCount").to_number<uint64_t>() == 30u);
  BOOST_TEST(file.at("cases").as_array().size() == 30u);
  BOOST_TEST(file.at("casesTruncated").as_bool() == false);
  for (const char* key : {"baselinePassRate", "candidatePassRate", "passRateDelta", "significant", "improvedCount",
                          "unchangedCount", "addedCount", "removedCount", "warnings", "message", "passRatePValue"})
    BOOST_TEST(file.contains(key), key);
}

BOOST_AUTO_TEST_CASE(cases_are_capped_at_fifty) {
  gate(run_of(steady(80, 0.8)));
  const GateVerdict v = gate(run_of(steady(80, 0.7)));
  BOOST_TEST(v.status == GateStatus::fail);
  const json::object file = verdict_file();
  BOOST_TEST(file.at("cases").as_array().size() == 50u);
  BOOST_TEST(file.at("casesTruncated").as_bool());
}

BOOST_AUTO_TEST_CASE(one_severe_item_fails_even_on_tiny_data) {
  gate(run_of({0.9, 0.9}));
  const GateVerdict v = gate(run_of({0.6, 0.9}));  // -0.3 on one item of two
  BOOST_TEST(v.status == GateStatus::fail);
  BOOST_TEST(v.fails_build);
  BOOST_TEST(verdict_file().at("cases").as_array()[0].at("datasetItemId").as_string() == "item-0");
  config.comparison.severity_margin = 0.4;
  BOOST_TEST(gate(run_of({0.6, 0.9})).status == GateStatus::inconclusive);
}

BOOST_AUTO_TEST_CASE(too_few_items_is_inconclusive_and_says_what_would_decide) {
  gate(run_of({0.9, 0.8, 0.7}));
  const GateVerdict v = gate(run_of({0.85, 0.8, 0.7}));
  BOOST_TEST(v.status == GateStatus::inconclusive);
  BOOST_TEST(v.passed);
  BOOST_TEST(!v.fails_build);
  BOOST_TEST(v.message.find("need at least 6 paired items") != std::string::npos);
  BOOST_TEST(v.message.find("have 3") != std::string::npos);
  BOOST_TEST(verdict_file().at("minimumPairedItems").to_number<uint64_t>() == 6u);
  config.fail_on_inconclusive = true;
  BOOST_TEST(gate(run_of({0.85, 0.8, 0.7})).fails_build);
  config.fail_on_inconclusive = false;
  config.comparison.alpha = 0.01;  // a stricter alpha needs more data
  BOOST_TEST(gate(run_of({0.85, 0.8, 0.7})).message.find("need at least 9 paired items") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(fail_on_regression_false_records_without_failing) {
  gate(run_of(steady(20, 0.9)));
  config.fail_on_regression = false;
  const GateVerdict v = gate(run_of(steady(20, 0.5)));
  BOOST_TEST(v.status == GateStatus::fail);
  BOOST_TEST(!v.passed);
  BOOST_TEST(!v.fails_build);
  BOOST_TEST(verdict_file().at("failsBuild").as_bool() == false);
}

BOOST_AUTO_TEST_CASE(a_removed_evaluator_fails_by_default_even_without_fail_on_regression) {
  gate(run_of(steady(10)));
  config.fail_on_regression = false;
  const GateVerdict v = gate(run_of(steady(10), /*with_format=*/false));
  BOOST_TEST(v.status == GateStatus::fail);
  BOOST_TEST(v.fails_build);
  BOOST_TEST(v.message.find("evaluator 'format' is in the baseline but not in this run") != std::string::npos);
  config.on_removed_evaluator = RemovedEvaluatorPolicy::warn;
  const GateVerdict warned = gate(run_of(steady(10), false));
  BOOST_TEST(warned.status == GateStatus::pass);
  BOOST_TEST(warned.warnings.size() == 1u);
}

BOOST_AUTO_TEST_CASE(removed_items_warn_unless_fail_on_removed_items) {
  gate(run_of(steady(12)));
  const GateVerdict v = gate(run_of(steady(10)));
  BOOST_TEST(v.status == GateStatus::pass);
  BOOST_REQUIRE(v.warnings.size() == 1u);
  BOOST_TEST(v.warnings[0].find("2 baseline item(s) are missing") != std::string::npos);
  BOOST_TEST(v.warnings[0].find("'item-10', 'item-11'") != std::string::npos);
  config.fail_on_removed_items = true;
  const GateVerdict failed = gate(run_of(steady(10)));
  BOOST_TEST(failed.status == GateStatus::fail);
  BOOST_TEST(failed.fails_build);
}

BOOST_AUTO_TEST_CASE(auto_pairing_follows_ids_and_survives_a_reorder) {
  // Baseline keyed by id; the candidate has the same items in another order.
  gate(run_of({0.9, 0.1, 0.9, 0.9, 0.9, 0.9, 0.9}, true, true));
  RunProjectionBuilder builder;
  const std::vector<double> scores = {0.9, 0.1, 0.9, 0.9, 0.9, 0.9, 0.9};
  for (size_t i = 0; i < scores.size(); ++i) {
    const size_t original = scores.size() - 1 - i;  // reversed
    builder.add_event(item_event(0, i, {{"quality", scores[original], scores[original] >= 0.5}, {"format", 1.0, true}},
                                 "id-" + std::to_string(original)),
                      "t");
  }
  const RunProjection reversed = builder.finish();
  const GateVerdict by_id = gate(reversed);
  BOOST_TEST(by_id.pairing == "dataset_item_id");
  BOOST_TEST(by_id.status == GateStatus::pass);
  config.pairing = Pairing::positional;  // by position the reorder is a (severe) change
  const GateVerdict by_position = gate(reversed);
  BOOST_TEST(by_position.pairing == "positional");
  BOOST_TEST(by_position.status == GateStatus::fail);
}

BOOST_AUTO_TEST_CASE(id_pairing_fails_when_an_item_lacks_an_id) {
  config.pairing = Pairing::dataset_item_id;
  BOOST_CHECK_EXCEPTION(gate(run_of(steady(3))), KrinoError,
                        [](const KrinoError& e) { return std::string(e.what()).find("has no id") != std::string::npos; });
}

BOOST_AUTO_TEST_CASE(a_corrupt_baseline_is_a_configuration_error) {
  std::filesystem::create_directories(config.baseline.parent_path());
  std::ofstream(config.baseline) << R"({"formatVersion":1,"items":[]})";
  BOOST_CHECK_EXCEPTION(gate(run_of(steady(3))), KrinoError,
                        [](const KrinoError& e) { return e.kind() == ErrorKind::configuration; });
}

BOOST_AUTO_TEST_CASE(gate_section_parsing) {
  const std::filesystem::path base = "/exp";
  GateConfig d = parse_gate_config({}, base, "rag");
  BOOST_TEST(d.baseline == std::filesystem::path("/exp/baselines/rag.json"));
  BOOST_TEST(d.verdict_dir == std::filesystem::path("/exp/krino-gate"));
  BOOST_TEST(d.comparison.severity_margin == 0.15);
  BOOST_TEST(d.comparison.alpha == 0.05);
  BOOST_TEST(d.comparison.seed == 42u);
  BOOST_TEST(d.comparison.permutation_iterations == 10000u);
  BOOST_TEST(d.comparison.bootstrap_iterations == 10000u);
  BOOST_TEST(d.pairing == Pairing::automatic);
  BOOST_TEST(d.fail_on_regression);
  BOOST_TEST(!d.fail_on_removed_items);
  BOOST_TEST(d.on_removed_evaluator == RemovedEvaluatorPolicy::fail);
  BOOST_TEST(d.bootstrap_passes);
  BOOST_TEST(!d.update_baseline);
  const json::object all = json::parse(R"({"baseline":"b/x.json","severity_margin":0.2,"pairing":"id",
      "fail_on_regression":false,"fail_on_removed_items":true,"on_removed_evaluator":"warn","alpha":0.01,"seed":7,
      "permutation_iterations":500,"bootstrap_iterations":600,"bootstrap_passes":false,"update_baseline":true,
      "verdict_dir":"out","fail_on_inconclusive":true})").as_object();
  GateConfig c = parse_gate_config(all, base, "");
  BOOST_TEST(c.baseline == std::filesystem::path("/exp/b/x.json"));
  BOOST_TEST(c.verdict_dir == std::filesystem::path("/exp/out"));
  BOOST_TEST(c.comparison.severity_margin == 0.2);
  BOOST_TEST(c.pairing == Pairing::dataset_item_id);
  BOOST_TEST(!c.fail_on_regression);
  BOOST_TEST(c.fail_on_removed_items);
  BOOST_TEST(c.on_removed_evaluator == RemovedEvaluatorPolicy::warn);
  BOOST_TEST(c.comparison.alpha == 0.01);
  BOOST_TEST(c.comparison.seed == 7u);
  BOOST_TEST(c.comparison.permutation_iterations == 500u);
  BOOST_TEST(c.comparison.bootstrap_iterations == 600u);
  BOOST_TEST(!c.bootstrap_passes);
  BOOST_TEST(c.update_baseline);
  BOOST_TEST(c.fail_on_inconclusive);
  auto fails = [&](const std::string& text, const std::string& expected, const std::string& name = "rag") {
    bool ok = false;
    try {
      parse_gate_config(json::parse(text).as_object(), base, name);
    } catch (const KrinoError& e) {
      ok = std::string(e.what()).find(expected) != std::string::npos;
      if (!ok) BOOST_TEST_MESSAGE(e.what());
    }
    BOOST_TEST(ok, text);
  };
  fails("{}", "has no name", "");
  fails("{}", "has no name", "unnamed");
  fails(R"({"alpah":0.1})", "unknown key 'alpah'");
  fails(R"({"alpha":1.5})", "alpha");
  fails(R"({"pairing":"index"})", "expected auto, positional or id");
  fails(R"({"on_removed_evaluator":"ignore"})", "expected fail or warn");
  fails(R"({"severity_margin":"big"})", "expected a number");
  fails(R"({"permutation_iterations":0})", "permutation_iterations");
}

BOOST_AUTO_TEST_SUITE_END()
