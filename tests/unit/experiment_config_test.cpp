#include "krino/core/common/error.hpp"
#include "krino/core/experiment/config_document.hpp"
#include "krino/core/experiment/experiment_config.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>

using namespace krino::core;
namespace json = boost::json;

namespace {
ExperimentConfig parse(const std::string& yaml, const std::filesystem::path& base = "/data/exp") {
  json::value doc = parse_config_text(yaml, "t.yaml");
  normalize_experiment_document(doc);
  return parse_experiment(doc, base);
}
}  // namespace

BOOST_AUTO_TEST_SUITE(experiment_config)

BOOST_AUTO_TEST_CASE(defaults_and_shorthands) {
  ExperimentConfig c = parse(R"(
dataset: qa.jsonl
evaluators:
  - exact_match
  - regex: {pattern: "^A"}
  - use: structural_match
    match_mode: lenient
)");
  BOOST_TEST(c.name == "unnamed");
  BOOST_TEST(c.runs == 1u);
  BOOST_TEST(c.parallelism == 1u);
  BOOST_TEST(c.min_pass_rate == 1.0);
  BOOST_TEST(c.task.kind == "replay");
  BOOST_TEST(c.dataset.uri == "/data/exp/qa.jsonl");  // relative to the experiment file
  BOOST_REQUIRE(c.evaluators.size() == 3u);
  BOOST_TEST(c.evaluators[0].component == "exact_match");
  BOOST_TEST(c.evaluators[0].options.empty());
  BOOST_TEST(c.evaluators[1].component == "regex");
  BOOST_TEST(c.evaluators[1].options.at("pattern").as_string() == "^A");
  BOOST_TEST(c.evaluators[2].options.at("match_mode").as_string() == "lenient");
  BOOST_REQUIRE(c.reporters.size() == 1u);
  BOOST_TEST(c.reporters[0].component == "console");
}

BOOST_AUTO_TEST_CASE(dataset_uris) {
  BOOST_TEST(parse("dataset: /abs/x.csv\nevaluators: [e]").dataset.uri == "/abs/x.csv");
  BOOST_TEST(parse("dataset: file:rel/x.csv\nevaluators: [e]").dataset.uri == "file:/data/exp/rel/x.csv");
  BOOST_TEST(parse("dataset: file:///abs/x.csv\nevaluators: [e]").dataset.uri == "file:///abs/x.csv");
  BOOST_TEST(parse("dataset: dataset://faq@3\nevaluators: [e]").dataset.uri == "dataset://faq@3");
  auto c = parse("dataset: {uri: x.json, resolver: json, options: {a: 1}}\nevaluators: [e]");
  BOOST_TEST(c.dataset.resolver == "json");
  BOOST_TEST(c.dataset.options.at("a").as_int64() == 1);
}

BOOST_AUTO_TEST_CASE(errors_name_the_key) {
  auto message_of = [](const std::string& yaml) {
    try {
      parse(yaml);
    } catch (const KrinoError& e) {
      BOOST_TEST((e.kind() == ErrorKind::configuration));
      return std::string(e.what());
    }
    return std::string("no error");
  };
  BOOST_TEST(message_of("evaluators: [e]").find("dataset") != std::string::npos);
  BOOST_TEST(message_of("dataset: x.jsonl").find("evaluators") != std::string::npos);
  BOOST_TEST(message_of("dataset: x\nevaluators: [e]\nrun: 3").find("unknown key 'run'") != std::string::npos);
  BOOST_TEST(message_of("dataset: x\nevaluators: [e]\nruns: 0").find("runs") != std::string::npos);
  BOOST_TEST(message_of("dataset: x\nevaluators: [e]\nparallelism: -1").find("parallelism") != std::string::npos);
  BOOST_TEST(message_of("dataset: x\nevaluators: [e]\nmin_pass_rate: 2").find("min_pass_rate") != std::string::npos);
  BOOST_TEST(message_of("dataset: x\nevaluators: [{a: 1, b: 2}]").find("evaluators[0]") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_seed_may_use_all_64_bits) {
  // Was refused as "expected a non-negative whole number": the YAML reader made it a double.
  BOOST_TEST(parse("dataset: d.jsonl\nevaluators: [exact_match]\nseed: 18446744073709551615\n").seed ==
             18446744073709551615u);
  BOOST_CHECK_THROW(parse("dataset: d.jsonl\nevaluators: [exact_match]\nseed: 18446744073709551616\n"), KrinoError);
  BOOST_CHECK_THROW(parse("dataset: d.jsonl\nevaluators: [exact_match]\nseed: -1\n"), KrinoError);
}

BOOST_AUTO_TEST_CASE(load_applies_overrides_after_shorthands) {
  auto dir = std::filesystem::temp_directory_path() / "krino-exp-test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "e.yaml") << "name: base\ndataset: d.jsonl\nevaluators: [exact_match]\n";
  ExperimentConfig c = load_experiment(dir / "e.yaml", {"runs=4", "evaluators.0.threshold=0.25", "name=changed"});
  BOOST_TEST(c.runs == 4u);
  BOOST_TEST(c.name == "changed");
  BOOST_TEST(c.evaluators[0].component == "exact_match");
  BOOST_TEST(c.evaluators[0].options.at("threshold").as_double() == 0.25);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
