// `krino mcp` end to end: the real binary on stdio, fed a client's lines, with the text plugin.
#include "process.hpp"

#include <krino/json_parse.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <sstream>
#include <vector>

using namespace krino::test;
namespace json = boost::json;

namespace {

// Runs one session: `lines` on standard input, then its end; every line of standard output read back.
std::vector<json::object> mcp_session(const std::vector<std::string>& lines, ProcessResult& process) {
  std::string input;
  for (const std::string& line : lines) input.append(line).append("\n");
  ProcessOptions options;
  options.stdin_text = input;
  process = run_process({krino_binary(), "mcp", "--plugins", "text"}, options);
  std::vector<json::object> answers;
  std::istringstream out(process.out);
  std::string line;
  while (std::getline(out, line)) {
    json::error_code ec;
    json::value message = krino::json::parse(line, ec);
    BOOST_TEST_REQUIRE(!ec, "standard output holds something else than a protocol message: " << line);
    answers.push_back(message.as_object());
  }
  return answers;
}

// The answer to request `id` (null: the answer to a message with no readable id). Tool calls run on
// workers, so their answers may come in another order than the requests.
const json::object& answer_to(const std::vector<json::object>& answers, const json::value& id) {
  for (const json::object& answer : answers) {
    if (answer.contains("id") && answer.at("id") == id) return answer;
  }
  BOOST_FAIL("no answer to request " << krino::json::to_compact_json(id));
  throw std::logic_error("unreachable");
}

const std::string kInitialize =
    R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}})";
const std::string kInitialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_mcp)

BOOST_AUTO_TEST_CASE(a_session_initialises_lists_and_calls_the_evaluator_tools) {
  ProcessResult process;
  std::vector<json::object> answers = mcp_session(
      {kInitialize, kInitialized, R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})",
       R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_evaluators","arguments":{}}})",
       R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"describe_evaluator","arguments":{"name":"exact_match"}}})",
       R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"describe_evaluator","arguments":{"name":"krino.regex"}}})"},
      process);
  BOOST_TEST(process.exit_code == 0, process.err);
  BOOST_REQUIRE(answers.size() == 5u);  // the notification gets none

  BOOST_TEST(answers[0].at("id") == json::value(0));
  BOOST_TEST(answers[0].at("result").at("protocolVersion") == json::value("2025-11-25"));
  BOOST_TEST(answers[0].at("result").at("serverInfo").at("name") == json::value("krino"));

  std::vector<std::string> names;
  for (const json::value& tool : answer_to(answers, 1).at("result").at("tools").as_array()) names.emplace_back(tool.at("name").as_string());
  BOOST_TEST(names == (std::vector<std::string>{"list_evaluators", "describe_evaluator", "run_evaluation", "evaluate", "list_experiments",
                                               "compare_runs", "get_failing_queries", "gate"}),
             boost::test_tools::per_element());

  const json::object& listed = answer_to(answers, 2).at("result").at("structuredContent").as_object();
  bool has_exact_match = false;
  for (const json::value& e : listed.at("evaluators").as_array()) {
    if (e.at("id") == json::value("krino.exact_match")) has_exact_match = e.at("plugin") == json::value("krino.text");
  }
  BOOST_TEST(has_exact_match, krino::json::to_compact_json(listed));
  BOOST_TEST(listed.at("plugin_problems").as_array().empty());

  const json::object& described = answer_to(answers, 3).at("result").at("structuredContent").as_object();
  BOOST_TEST(described.at("id") == json::value("krino.exact_match"));
  BOOST_TEST(described.at("defaults").at("threshold") == json::value(1.0));
  BOOST_TEST(described.at("options_schema").at("properties").as_object().contains("ignore_case"));
  BOOST_TEST(answer_to(answers, 4).at("result").at("structuredContent").at("name") == json::value("regex"));
}

BOOST_AUTO_TEST_CASE(tool_errors_and_protocol_errors_keep_the_session_alive) {
  ProcessResult process;
  std::vector<json::object> answers = mcp_session(
      {kInitialize, kInitialized,
       R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"describe_evaluator","arguments":{"name":"no_such"}}})",
       R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"describe_evaluator","arguments":{"name":42}}})",
       R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"no_such_tool"}})",
       R"({"jsonrpc":"2.0","id":4,"method":"prompts/list"})", "{not json",
       R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}})",  // none in flight
       R"({"jsonrpc":"2.0","id":5,"method":"ping"})"},
      process);
  BOOST_TEST(process.exit_code == 0, process.err);
  BOOST_REQUIRE(answers.size() == 7u);
  BOOST_TEST(answer_to(answers, 1).at("result").at("isError") == json::value(true));
  BOOST_TEST(std::string(answer_to(answers, 1).at("result").at("content").at(0).at("text").as_string()).find("no_such") != std::string::npos);
  BOOST_TEST(answer_to(answers, 2).at("result").at("isError") == json::value(true));  // a number where a string goes
  BOOST_TEST(answer_to(answers, 3).at("error").at("code") == json::value(-32602));
  BOOST_TEST(answer_to(answers, 4).at("error").at("code") == json::value(-32601));
  BOOST_TEST(answer_to(answers, nullptr).at("error").at("code") == json::value(-32700));
  BOOST_TEST(answer_to(answers, 5).at("result").as_object().empty());
}

BOOST_AUTO_TEST_SUITE_END()
