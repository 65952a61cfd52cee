// The MCP message core and protocol (core/mcp): JSON-RPC framing and errors, the lifecycle, and
// tools/list and tools/call over a registry of test tools.
#include "krino/core/mcp/mcp_server.hpp"

#include <krino/json_parse.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <sstream>

using namespace krino::core::mcp;
namespace json = boost::json;

namespace {

ToolRegistry echo_tools() {
  ToolRegistry tools;
  McpTool echo;
  echo.name = "echo";
  echo.title = "Echo";
  echo.description = "Returns its text";
  echo.input_schema = schema_object(R"({"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false})");
  echo.output_schema = schema_object(R"({"type":"object","properties":{"text":{"type":"string"}},"required":["text"]})");
  echo.handler = [](const json::object& arguments) {
    ToolResult result;
    result.structured["text"] = arguments.at("text");
    return result;
  };
  tools.add(std::move(echo));
  McpTool failing;
  failing.name = "fail";
  failing.title = "Fail";
  failing.description = "Always fails";
  failing.input_schema = schema_object(R"({"type":"object"})");
  failing.output_schema = schema_object(R"({"type":"object"})");
  failing.handler = [](const json::object&) -> ToolResult { throw ToolError("no such dataset: /nowhere.jsonl"); };
  tools.add(std::move(failing));
  return tools;
}

McpServer test_server() { return McpServer(ServerInfo{"krino", "krino", "9.9.9"}, echo_tools()); }

json::object answer(McpServer& server, std::string_view line) {
  std::optional<std::string> text = server.handle_line(line);
  BOOST_REQUIRE(text.has_value());
  BOOST_TEST(text->find('\n') == std::string::npos);  // one message, one line
  return krino::json::parse(*text).as_object();
}

int error_code(const json::object& response) { return static_cast<int>(response.at("error").at("code").as_int64()); }

}  // namespace

BOOST_AUTO_TEST_SUITE(mcp_json_rpc)

BOOST_AUTO_TEST_CASE(malformed_json_is_a_parse_error_with_a_null_id) {
  McpServer server = test_server();
  json::object response = answer(server, R"({"jsonrpc":"2.0","id":1,"method":)");
  BOOST_TEST(error_code(response) == -32700);
  BOOST_TEST(response.at("id").is_null());
  BOOST_TEST(error_code(answer(server, "\xff\xfe")) == -32700);
}

BOOST_AUTO_TEST_CASE(invalid_requests_are_refused_with_the_id_echoed_when_readable) {
  McpServer server = test_server();
  json::object response = answer(server, R"({"jsonrpc":"1.0","id":"a","method":"ping"})");
  BOOST_TEST(error_code(response) == -32600);
  BOOST_TEST(response.at("id") == json::value("a"));
  BOOST_TEST(error_code(answer(server, R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])")) == -32600);  // no batches
  BOOST_TEST(error_code(answer(server, R"(42)")) == -32600);
  response = answer(server, R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})");
  BOOST_TEST(error_code(response) == -32600);
  BOOST_TEST(response.at("id").is_null());
  BOOST_TEST(error_code(answer(server, R"({"jsonrpc":"2.0","id":null,"method":"ping"})")) == -32600);
  BOOST_TEST(error_code(answer(server, R"({"jsonrpc":"2.0","id":3,"method":7})")) == -32600);
}

BOOST_AUTO_TEST_CASE(unknown_methods_are_method_not_found) {
  McpServer server = test_server();
  json::object response = answer(server, R"({"jsonrpc":"2.0","id":7,"method":"resources/list"})");
  BOOST_TEST(error_code(response) == -32601);
  BOOST_TEST(response.at("id") == json::value(7));
}

BOOST_AUTO_TEST_CASE(bad_params_are_invalid_params) {
  McpServer server = test_server();
  BOOST_TEST(error_code(answer(server, R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":[1]})")) == -32602);
  BOOST_TEST(error_code(answer(server, R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":{}})")) == -32602);
  BOOST_TEST(error_code(answer(server, R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{}})")) == -32602);
  BOOST_TEST(error_code(answer(server, R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":"x"}})")) == -32602);
  BOOST_TEST(error_code(answer(server, R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope"}})")) == -32602);
}

BOOST_AUTO_TEST_CASE(notifications_and_responses_get_no_answer) {
  McpServer server = test_server();
  BOOST_TEST(!server.handle_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").has_value());
  BOOST_TEST(server.initialized());
  BOOST_TEST(!server.handle_line(R"({"jsonrpc":"2.0","method":"no/such/notification"})").has_value());
  BOOST_TEST(!server.handle_line(R"({"jsonrpc":"2.0","method":"tools/call","params":{"name":"fail"}})").has_value());
  BOOST_TEST(!server.handle_line(R"({"jsonrpc":"2.0","id":9,"result":{}})").has_value());
  BOOST_TEST(!server.handle_line("").has_value());
  BOOST_TEST(!server.handle_line("\r").has_value());
}

BOOST_AUTO_TEST_CASE(cancellations_are_recorded) {
  McpServer server = test_server();
  BOOST_TEST(!server.handle_line(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":12,"reason":"user"}})").has_value());
  BOOST_TEST(server.cancelled_requests().count("12") == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(mcp_protocol)

BOOST_AUTO_TEST_CASE(initialize_negotiates_the_protocol_version) {
  McpServer server = test_server();
  json::object response = answer(server, R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
  const json::object& result = response.at("result").as_object();
  BOOST_TEST(result.at("protocolVersion") == json::value("2025-11-25"));
  BOOST_TEST(result.at("capabilities").at("tools").is_object());
  BOOST_TEST(result.at("serverInfo").at("name") == json::value("krino"));
  BOOST_TEST(result.at("serverInfo").at("version") == json::value("9.9.9"));
  // A version krino does not know: it offers its own, and the client decides.
  response = answer(server, R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05"}})");
  BOOST_TEST(response.at("result").at("protocolVersion") == json::value("2025-11-25"));
}

BOOST_AUTO_TEST_CASE(ping_answers_an_empty_result) {
  McpServer server = test_server();
  json::object response = answer(server, R"({"jsonrpc":"2.0","id":"p","method":"ping"})");
  BOOST_TEST(response.at("result").as_object().empty());
  BOOST_TEST(response.at("id") == json::value("p"));
}

BOOST_AUTO_TEST_CASE(tools_are_listed_with_their_schemas) {
  McpServer server = test_server();
  json::object response = answer(server, R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  const json::array& tools = response.at("result").at("tools").as_array();
  BOOST_REQUIRE(tools.size() == 2u);
  BOOST_TEST(tools[0].at("name") == json::value("echo"));
  BOOST_TEST(tools[0].at("inputSchema").at("type") == json::value("object"));
  BOOST_TEST(tools[0].at("outputSchema").at("required").as_array().size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_tool_call_gives_structured_and_text_content) {
  McpServer server = test_server();
  json::object response = answer(server, R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"héllo"}}})");
  const json::object& result = response.at("result").as_object();
  BOOST_TEST(result.at("isError") == json::value(false));
  BOOST_TEST(result.at("structuredContent").at("text") == json::value("héllo"));
  BOOST_TEST(result.at("content").at(0).at("type") == json::value("text"));
  BOOST_TEST(krino::json::parse(result.at("content").at(0).at("text").as_string()) == result.at("structuredContent"));
}

BOOST_AUTO_TEST_CASE(tool_failures_and_bad_arguments_are_tool_errors) {
  McpServer server = test_server();
  json::object result = answer(server, R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fail"}})").at("result").as_object();
  BOOST_TEST(result.at("isError") == json::value(true));
  BOOST_TEST(result.at("content").at(0).at("text") == json::value("no such dataset: /nowhere.jsonl"));
  result = answer(server, R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":3}}})").at("result").as_object();
  BOOST_TEST(result.at("isError") == json::value(true));
  BOOST_TEST(std::string(result.at("content").at(0).at("text").as_string()).find("invalid arguments for echo") == 0u);
  result = answer(server, R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo"}})").at("result").as_object();
  BOOST_TEST(result.at("isError") == json::value(true));
}

BOOST_AUTO_TEST_CASE(serve_answers_line_by_line) {
  McpServer server = test_server();
  std::istringstream in(
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n"
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
      "not json\n"
      "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");  // the last line has no newline
  std::ostringstream out;
  server.serve(in, out);
  BOOST_TEST(out.str() ==
             "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"
             "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"parse error: syntax error\"}}\n"
             "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n");
}

BOOST_AUTO_TEST_SUITE_END()
