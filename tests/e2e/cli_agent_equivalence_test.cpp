// The agent evaluators give the same per-item results through `krino eval` and through `krino run`
// with the json reporter, on one file of canonical test cases.
#include "process.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

using namespace krino::test;
namespace json = boost::json;

namespace {

// Tool definitions shared by every case, so tool_call_validity can check the calls.
constexpr const char* kCliAgentEquivalenceTools =
    R"([{"name":"search","parameters":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}},)"
    R"({"name":"book","parameters":{"type":"object","properties":{"city":{"type":"string"},"nights":{"type":"integer"}},"required":["city"]}},)"
    R"({"name":"ping","parameters":{"type":"object","properties":{}}}])";

// One canonical test case per pair of call lists.
std::string agent_case(const std::string& id, const std::string& actual, const std::string& expected) {
  return R"({"id":")" + id + R"(","inputs":{"input":")" + id + R"("},"actualOutputs":{"toolCalls":)" + actual +
         R"(},"expectedOutputs":{"toolCalls":)" + expected + R"(},"metadata":{"tools":)" + kCliAgentEquivalenceTools + "}}\n";
}

std::string agent_cases() {
  const std::string search_a = R"({"name":"search","arguments":{"q":"a"}})";
  const std::string search_b = R"({"name":"search","arguments":{"q":"b"}})";
  const std::string book = R"({"name":"book","arguments":{"city":"Oslo","nights":2}})";
  const std::string book_float = R"({"name":"book","arguments":{"city":"Oslo","nights":2.0}})";
  const std::string book_rome = R"({"name":"book","arguments":{"city":"Rome","nights":2}})";
  const std::string book_bad = R"({"name":"book","arguments":{"nights":"two"}})";
  const std::string ping = R"({"name":"ping","arguments":{}})";
  std::string out;
  out += agent_case("same", "[" + search_a + "," + book + "]", "[" + search_a + "," + book + "]");
  out += agent_case("reordered", "[" + book + "," + search_a + "]", "[" + search_a + "," + book + "]");
  out += agent_case("extra-call", "[" + search_a + "," + ping + "," + book + "]", "[" + search_a + "," + book + "]");
  out += agent_case("other-args", "[" + search_a + "," + book_rome + "]", "[" + search_a + "," + book + "]");
  out += agent_case("both-empty", "[]", "[]");
  out += agent_case("none-made", "[]", "[" + search_a + "]");
  out += agent_case("none-expected", "[" + ping + "]", "[]");
  out += agent_case("repeated-names", "[" + search_b + "," + search_a + "," + book_float + "]",
                    "[" + search_a + "," + search_b + "," + book + "]");
  out += agent_case("invalid-args", "[" + book_bad + "," + search_a + "]", "[" + search_a + "]");
  return out;
}

std::vector<json::object> cli_agent_equivalence_json_lines(const std::string& text) {
  std::vector<json::object> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(json::parse(line).as_object());
  return out;
}

// The fields a reader compares, so a later addition to either format does not break the test.
json::object comparable(const json::object& result) {
  json::object out;
  for (const char* key : {"name", "score", "success", "threshold", "reason", "metadata"}) {
    BOOST_TEST(result.contains(key), key << " missing in " << json::serialize(result));
    if (result.contains(key)) out[key] = result.at(key);
  }
  return out;
}

struct Evaluator {
  std::string name;
  std::string config;  // JSON object
};

// One `krino eval` per evaluator: result lines in input order.
std::vector<std::vector<json::object>> eval_each(const std::string& cases_path, const std::vector<Evaluator>& evaluators) {
  std::vector<std::vector<json::object>> per_evaluator;
  for (const Evaluator& e : evaluators) {
    const ProcessResult r = run_process({krino_binary(), "eval", "--evaluator", e.name, "--config", e.config, cases_path});
    BOOST_TEST((r.exit_code == 0 || r.exit_code == 1), e.name << ": " << r.err);
    per_evaluator.push_back(cli_agent_equivalence_json_lines(r.out));
  }
  return per_evaluator;
}

// One `krino run` with every evaluator and a json reporter: the item_finished events in order.
std::vector<json::object> run_all(const std::string& cases_path, const std::vector<Evaluator>& evaluators,
                                  const std::string& tag) {
  const std::string results = temp_path(tag + "-results.jsonl");
  const std::string experiment = temp_path(tag + "-experiment.json");
  json::array uses;
  for (const Evaluator& e : evaluators) {
    json::object use = json::parse(e.config).as_object();
    use["use"] = e.name;
    uses.push_back(std::move(use));
  }
  json::object file{{"name", "agent-equivalence"},
                    {"dataset", cases_path},
                    {"evaluators", std::move(uses)},
                    {"reporters", json::array{json::object{{"use", "json"}, {"path", results}}}},
                    {"min_pass_rate", 0.0}};
  write_file(experiment, json::serialize(file));
  const ProcessResult r = run_process({krino_binary(), "run", experiment});
  BOOST_TEST(r.exit_code == 0, r.out << r.err);
  std::vector<json::object> items;
  for (json::object& event : cli_agent_equivalence_json_lines(read_file(results)))
    if (event.at("event").as_string() == "item_finished") items.push_back(std::move(event));
  std::filesystem::remove(results);
  std::filesystem::remove(experiment);
  return items;
}

void check_equivalence(const std::vector<Evaluator>& evaluators, const std::string& tag) {
  const std::string cases_path = temp_path(tag + "-cases.jsonl");
  const std::string cases = agent_cases();
  write_file(cases_path, cases);
  const std::size_t case_count = cli_agent_equivalence_json_lines(cases).size();

  const auto from_eval = eval_each(cases_path, evaluators);
  const auto from_run = run_all(cases_path, evaluators, tag);
  std::filesystem::remove(cases_path);

  BOOST_REQUIRE_EQUAL(from_run.size(), case_count);
  for (std::size_t e = 0; e < evaluators.size(); ++e) {
    BOOST_REQUIRE_EQUAL(from_eval[e].size(), case_count);
    for (std::size_t i = 0; i < case_count; ++i) {
      BOOST_TEST_CONTEXT(evaluators[e].name << ", case " << i) {
        BOOST_TEST(!from_eval[e][i].contains("error"), json::serialize(from_eval[e][i]));
        BOOST_TEST(from_run[i].at("error").is_null(), json::serialize(from_run[i]));
        const json::array& results = from_run[i].at("results").as_array();
        BOOST_REQUIRE_EQUAL(results.size(), evaluators.size());
        const json::object a = comparable(from_eval[e][i]);
        const json::object b = comparable(results[e].as_object());
        BOOST_TEST(a == b, "eval: " << json::serialize(a) << "\nrun:  " << json::serialize(b));
      }
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_agent_equivalence)

BOOST_AUTO_TEST_CASE(tool_trajectory_any_order_is_the_same_through_eval_and_run) {
  const std::vector<Evaluator> evaluators{{"tool_trajectory", R"({"match_mode":"any_order"})"}};
  check_equivalence(evaluators, "trajectory");

  // The scores themselves, so the equivalence is not between two wrong answers.
  const std::string cases_path = temp_path("trajectory-scores.jsonl");
  write_file(cases_path, agent_cases());
  const auto lines = eval_each(cases_path, evaluators).front();
  std::filesystem::remove(cases_path);
  BOOST_REQUIRE_EQUAL(lines.size(), 9u);
  const std::vector<double> expected{1.0, 1.0, 2.0 / 3.0, 0.5, 1.0, 0.0, 0.0, 1.0, 0.5};
  for (std::size_t i = 0; i < lines.size(); ++i)
    BOOST_TEST(lines[i].at("score").to_number<double>() == expected[i], "case " << i);
  BOOST_TEST(lines[1].at("reason").as_string() == "2 calls paired in any order; the longer list has 2 (any_order, arguments: exact)");
  BOOST_TEST(lines[3].at("reason").as_string() == "1 call paired in any order; the longer list has 2 (any_order, arguments: exact)");
}

BOOST_AUTO_TEST_CASE(several_agent_evaluators_are_the_same_through_eval_and_run) {
  check_equivalence({{"tool_call_validity", "{}"},
                     {"tool_correctness", R"({"match_mode":"names_and_args"})"},
                     {"tool_trajectory", R"({"match_mode":"strict"})"},
                     {"tool_efficiency", "{}"}},
                    "several");
}

BOOST_AUTO_TEST_SUITE_END()
