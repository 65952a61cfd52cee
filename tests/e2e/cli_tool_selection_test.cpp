// The tutorial's single-turn tool-selection suite end to end (docs/tasks/model.md): the six cases of
// datasets/tool-selection in their own JSON shape, sent to a model through the openai task (the
// Responses API, as the tutorial uses it) served by the fake model server over real HTTP, scored by
// tool_selection, with a PASS or FAIL line per case and the summary.
#include "process.hpp"

#include "fake_llm_server.hpp"
#include "script.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

using namespace krino::test;
namespace json = boost::json;
namespace fake = krino::fake_llm;

namespace {

struct SuiteRun {
  fake::FakeLlmServer server;
  ProcessResult result;

  explicit SuiteRun(const std::string& script_text) : server([&] {
    fake::ServerOptions o;
    o.script = fake::parse_script(script_text);
    return o;
  }()) {
    result = run_process({krino_binary(), "run", source_path("datasets/tool-selection/file-tools.yaml"), "--set",
                          "task.base_url=" + server.base_url() + "/v1"});
  }

  std::vector<std::string> item_lines() const {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < result.err.size()) {
      std::size_t end = result.err.find('\n', start);
      if (end == std::string::npos) end = result.err.size();
      std::string line = result.err.substr(start, end - start);
      if (line.rfind("PASS ", 0) == 0 || line.rfind("FAIL ", 0) == 0 || line.rfind("ERROR ", 0) == 0) lines.push_back(line);
      start = end + 1;
    }
    return lines;
  }
};

bool cli_tool_selection_has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_tool_selection)

BOOST_AUTO_TEST_CASE(the_tutorials_six_cases_pass_as_its_expected_output_says) {
  SuiteRun run(read_file(source_path("datasets/tool-selection/file-tools.fake-llm.json")));
  BOOST_TEST(run.result.exit_code == 0, run.result.out << run.result.err);
  const auto lines = run.item_lines();
  BOOST_REQUIRE(lines.size() == 6u);
  const char* expected[] = {"called the expected tool 'list_files'", "called the expected tool 'read_file'",
                            "called the expected tool 'read_file'", "called no tool, as expected",
                            "called no tool, as expected", "called the expected tool 'list_files'"};
  for (std::size_t i = 0; i < 6; ++i) {
    BOOST_TEST(lines[i].rfind("PASS #" + std::to_string(i), 0) == 0u, lines[i]);
    BOOST_TEST(cli_tool_selection_has(lines[i], "tool_selection 1.00 > 0.50"), lines[i]);
    BOOST_TEST(cli_tool_selection_has(lines[i], expected[i]), lines[i]);
  }
  // "Passed: 6/6 (100%)": every case passed, and the mean score (what the tutorial prints) is 1.
  BOOST_TEST(cli_tool_selection_has(run.result.out, "Pass rate: 100.0% (6 items: 6 passed, 0 failed, 0 errors)"), run.result.out);
  BOOST_TEST(cli_tool_selection_has(run.result.out, "tool_selection  1.000"), run.result.out);

  // What the model was asked: the case's message, the two tools, through the Responses API.
  const auto requests = run.server.recent_requests();
  BOOST_REQUIRE(requests.size() == 6u);
  for (const auto& request : requests) {
    BOOST_TEST((request.endpoint == fake::Endpoint::openai_responses));
    json::value body = json::parse(request.body);
    BOOST_TEST(body.at("model").as_string() == "gpt-5-mini");
    BOOST_TEST(body.at("tools").as_array().size() == 2u);
    BOOST_TEST(body.at_pointer("/input/0/role").as_string() == "user");
  }
}

BOOST_AUTO_TEST_CASE(a_secondary_choice_earns_half_and_a_wrong_one_fails) {
  SuiteRun run(R"({"rules": [
    {"match": {"contains": "Read the settings.gradle.kts file"}, "reply": {"tool_calls": [{"name": "list_files", "arguments": {"path": "."}}]}},
    {"match": {"contains": "What is Java?"}, "reply": {"tool_calls": [{"name": "read_file", "arguments": {"path": "README"}}]}},
    {"match": {"contains": "List everything in the src directory"}, "reply": {"content": "I cannot see your files."}},
    {"match": {"contains": "What files"}, "reply": {"tool_calls": [{"name": "list_files", "arguments": {"path": "."}}]}},
    {"match": {"contains": "Show me the contents"}, "reply": {"tool_calls": [{"name": "list_files", "arguments": {"path": "."}}]}},
    {"match": {"contains": "joke"}, "reply": {"content": "No."}}]})");
  BOOST_TEST(run.result.exit_code == 1, run.result.err);  // min_pass_rate 1.0: three cases failed
  const auto lines = run.item_lines();
  BOOST_REQUIRE(lines.size() == 6u);
  BOOST_TEST(lines[0].rfind("PASS #0", 0) == 0u, lines[0]);
  BOOST_TEST(lines[1].rfind("FAIL #1", 0) == 0u, lines[1]);  // wrong tool
  BOOST_TEST(cli_tool_selection_has(lines[1], "tool_selection 0.00 < 0.50"), lines[1]);
  BOOST_TEST(lines[2].rfind("PASS #2", 0) == 0u, lines[2]);  // the secondary tool: partial credit, a pass
  BOOST_TEST(cli_tool_selection_has(lines[2], "tool_selection 0.50 = 0.50"), lines[2]);
  BOOST_TEST(lines[3].rfind("FAIL #3", 0) == 0u, lines[3]);  // a tool where none was expected
  BOOST_TEST(lines[4].rfind("PASS #4", 0) == 0u, lines[4]);
  BOOST_TEST(lines[5].rfind("FAIL #5", 0) == 0u, lines[5]);  // no tool where one was expected
  // 3 of 6 passed; the mean score is (1 + 0 + 0.5 + 0 + 1 + 0) / 6 = 0.417: the tutorial's "3/6 (42%)".
  BOOST_TEST(cli_tool_selection_has(run.result.out, "Pass rate: 50.0% (6 items: 3 passed, 3 failed, 0 errors)"), run.result.out);
  BOOST_TEST(cli_tool_selection_has(run.result.out, "tool_selection  0.417"), run.result.out);
}

BOOST_AUTO_TEST_SUITE_END()
