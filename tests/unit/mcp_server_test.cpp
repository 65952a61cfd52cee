// The MCP message core and protocol (core/mcp): JSON-RPC framing and errors, the lifecycle,
// tools/list and tools/call over a registry of test tools, and tool calls on workers (progress,
// cancellation, pings answered while a tool runs).
#include "krino/core/mcp/mcp_server.hpp"
#include "krino/core/mcp/mcp_session.hpp"

#include <krino/json_parse.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

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
  echo.handler = [](const json::object& arguments, const ToolContext&) {
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
  failing.handler = [](const json::object&, const ToolContext&) -> ToolResult { throw ToolError("no such dataset: /nowhere.jsonl"); };
  tools.add(std::move(failing));
  return tools;
}

// A session whose outgoing messages are collected, with a way to wait for them.
class TestSession {
 public:
  explicit TestSession(const McpServer& server) : session_(server) {}

  McpSession& session() { return session_; }

  // Sends one line; `done` calls are counted.
  void send(std::string_view line) {
    session_.receive(line, [this](std::string message) {
      std::lock_guard lock(mutex_);
      BOOST_TEST(message.find('\n') == std::string::npos);  // one message, one line
      messages_.push_back(krino::json::parse(message).as_object());
      changed_.notify_all();
    }, [this] {
      std::lock_guard lock(mutex_);
      ++done_;
      changed_.notify_all();
    });
  }

  // Waits (up to 10 s) until `count` messages arrived, then returns them all.
  std::vector<json::object> wait_for(std::size_t count) {
    std::unique_lock lock(mutex_);
    BOOST_REQUIRE(changed_.wait_for(lock, std::chrono::seconds(10), [&] { return messages_.size() >= count; }));
    return messages_;
  }
  std::vector<json::object> messages() {
    std::lock_guard lock(mutex_);
    return messages_;
  }
  std::size_t done_calls() {
    std::lock_guard lock(mutex_);
    return done_;
  }

 private:
  McpSession session_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<json::object> messages_;
  std::size_t done_ = 0;
};

McpServer test_server() { return McpServer(ServerInfo{"krino", "krino", "9.9.9"}, echo_tools()); }

// One line's single answer (tool calls included: waits for the worker).
json::object answer(McpServer& server, std::string_view line) {
  TestSession session(server);
  session.send(line);
  session.session().wait_idle();
  const std::vector<json::object> messages = session.messages();
  BOOST_REQUIRE(messages.size() == 1u);
  return messages.front();
}

// The answers a fresh session gives to `line` (none for notifications).
std::size_t answer_count(McpServer& server, std::string_view line) {
  TestSession session(server);
  session.send(line);
  session.session().wait_idle();
  BOOST_TEST(session.done_calls() == 1u);
  return session.messages().size();
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
  TestSession session(server);
  session.send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  BOOST_TEST(session.session().initialized());
  BOOST_TEST(session.messages().empty());
  BOOST_TEST(answer_count(server, R"({"jsonrpc":"2.0","method":"no/such/notification"})") == 0u);
  BOOST_TEST(answer_count(server, R"({"jsonrpc":"2.0","method":"tools/call","params":{"name":"fail"}})") == 0u);
  BOOST_TEST(answer_count(server, R"({"jsonrpc":"2.0","id":9,"result":{}})") == 0u);
  BOOST_TEST(answer_count(server, "") == 0u);
  BOOST_TEST(answer_count(server, "\r") == 0u);
  BOOST_TEST(answer_count(server, R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":12,"reason":"user"}})") == 0u);
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
  server.serve(in, out);  // one message at a time: no tool call here, so the order is the input's
  BOOST_TEST(out.str() ==
             "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"
             "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"parse error: syntax error\"}}\n"
             "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n");
}

BOOST_AUTO_TEST_SUITE_END()

namespace {

// What the slow test tool saw; shared with the test thread.
struct Gate {
  std::mutex mutex;
  std::condition_variable changed;
  bool started = false;
  bool open = false;
  bool saw_cancellation = false;
};

// "wait" blocks until the gate opens or its request is cancelled; "count" reports three steps.
ToolRegistry slow_tools(Gate& gate) {
  ToolRegistry tools;
  McpTool wait;
  wait.name = "wait";
  wait.title = "Wait";
  wait.description = "Waits for the test";
  wait.input_schema = schema_object(R"({"type":"object"})");
  wait.output_schema = schema_object(R"({"type":"object"})");
  wait.handler = [&gate](const json::object&, const ToolContext& context) {
    std::unique_lock lock(gate.mutex);
    gate.started = true;
    gate.changed.notify_all();
    // Polls the cancellation as the runner does between items.
    while (!gate.open && !context.cancelled()) gate.changed.wait_for(lock, std::chrono::milliseconds(5));
    gate.saw_cancellation = context.cancelled();
    return ToolResult{};
  };
  tools.add(std::move(wait));
  McpTool count;
  count.name = "count";
  count.title = "Count";
  count.description = "Reports progress";
  count.input_schema = schema_object(R"({"type":"object"})");
  count.output_schema = schema_object(R"({"type":"object"})");
  count.handler = [](const json::object&, const ToolContext& context) {
    context.report_progress(1, 3, "one");
    context.report_progress(1, 3, "one again");  // not above the last: dropped
    context.report_progress(2, 3);
    context.report_progress(3, std::nullopt, "three");
    ToolResult result;
    result.structured["counted"] = 3;
    return result;
  };
  tools.add(std::move(count));
  return tools;
}

void wait_until_started(Gate& gate) {
  std::unique_lock lock(gate.mutex);
  BOOST_REQUIRE(gate.changed.wait_for(lock, std::chrono::seconds(10), [&] { return gate.started; }));
}

void open_gate(Gate& gate) {
  std::lock_guard lock(gate.mutex);
  gate.open = true;
  gate.changed.notify_all();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(mcp_tool_calls)

BOOST_AUTO_TEST_CASE(a_ping_is_answered_while_a_slow_tool_runs) {
  Gate gate;
  McpServer server(ServerInfo{"krino", "krino", "1"}, slow_tools(gate), 2);
  TestSession session(server);
  session.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait"}})");
  wait_until_started(gate);
  session.send(R"({"jsonrpc":"2.0","id":2,"method":"ping"})");
  std::vector<json::object> messages = session.wait_for(1);
  BOOST_TEST(messages[0].at("id") == json::value(2));
  BOOST_TEST(session.session().calls_in_flight() == 1u);
  open_gate(gate);
  messages = session.wait_for(2);
  BOOST_TEST(messages[1].at("id") == json::value(1));
  BOOST_TEST(messages[1].at("result").at("isError") == json::value(false));
  session.session().wait_idle();
  BOOST_TEST(session.done_calls() == 2u);
}

BOOST_AUTO_TEST_CASE(progress_notifications_come_in_order_before_the_result) {
  Gate gate;
  McpServer server(ServerInfo{"krino", "krino", "1"}, slow_tools(gate), 2);
  TestSession session(server);
  session.send(R"({"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"count","_meta":{"progressToken":"tok"}}})");
  session.session().wait_idle();
  const std::vector<json::object> messages = session.messages();
  BOOST_REQUIRE(messages.size() == 4u);
  for (std::size_t i = 0; i < 3; ++i) {
    BOOST_TEST(messages[i].at("method") == json::value("notifications/progress"));
    BOOST_TEST(messages[i].at("params").at("progressToken") == json::value("tok"));
    BOOST_TEST(messages[i].at("params").at("progress").to_number<double>() == static_cast<double>(i + 1));
  }
  BOOST_TEST(messages[0].at("params").at("total").to_number<double>() == 3.0);
  BOOST_TEST(messages[0].at("params").at("message") == json::value("one"));
  BOOST_TEST(!messages[1].at("params").as_object().contains("message"));
  BOOST_TEST(!messages[2].at("params").as_object().contains("total"));
  BOOST_TEST(messages[3].at("id") == json::value("c"));
  BOOST_TEST(messages[3].at("result").at("structuredContent").at("counted") == json::value(3));
}

BOOST_AUTO_TEST_CASE(no_progress_is_sent_without_a_progress_token) {
  Gate gate;
  McpServer server(ServerInfo{"krino", "krino", "1"}, slow_tools(gate), 2);
  TestSession session(server);
  session.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count"}})");
  session.session().wait_idle();
  const std::vector<json::object> messages = session.messages();
  BOOST_REQUIRE(messages.size() == 1u);
  BOOST_TEST(messages[0].at("id") == json::value(1));
}

BOOST_AUTO_TEST_CASE(a_cancelled_call_gets_no_answer_and_its_tool_sees_the_cancellation) {
  Gate gate;
  McpServer server(ServerInfo{"krino", "krino", "1"}, slow_tools(gate), 2);
  TestSession session(server);
  session.send(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wait"}})");
  wait_until_started(gate);
  session.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}})");
  session.session().wait_idle();
  BOOST_TEST(session.messages().empty());
  BOOST_TEST(gate.saw_cancellation);
  BOOST_TEST(session.done_calls() == 2u);  // the notification's, and the call's with no answer
  // The id is free again, and a later call is answered.
  open_gate(gate);
  session.send(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wait"}})");
  BOOST_TEST(session.wait_for(1)[0].at("id") == json::value(7));
}

BOOST_AUTO_TEST_CASE(an_id_still_in_flight_is_refused) {
  Gate gate;
  McpServer server(ServerInfo{"krino", "krino", "1"}, slow_tools(gate), 2);
  TestSession session(server);
  session.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait"}})");
  wait_until_started(gate);
  session.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count"}})");
  const std::vector<json::object> messages = session.wait_for(1);
  BOOST_TEST(error_code(messages[0]) == -32600);
  open_gate(gate);
  session.session().wait_idle();
  BOOST_TEST(session.messages().size() == 2u);
}

BOOST_AUTO_TEST_CASE(ending_a_session_cancels_its_calls) {
  Gate gate;
  McpServer server(ServerInfo{"krino", "krino", "1"}, slow_tools(gate), 2);
  {
    McpSession session(server);
    session.receive(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait"}})", [](std::string) {
      BOOST_FAIL("a call cancelled with its session must not be answered");
    });
    wait_until_started(gate);
  }
  BOOST_TEST(gate.saw_cancellation);
}

BOOST_AUTO_TEST_CASE(serve_waits_for_calls_in_flight_at_the_end_of_input) {
  Gate gate;
  McpServer server(ServerInfo{"krino", "krino", "1"}, slow_tools(gate), 2);
  std::istringstream in("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"wait\"}}\n");
  std::ostringstream out;
  std::thread opener([&] {
    wait_until_started(gate);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    open_gate(gate);
  });
  server.serve(in, out);
  opener.join();
  BOOST_TEST(out.str().find("\"id\":1,\"result\"") != std::string::npos, out.str());
  BOOST_TEST(!gate.saw_cancellation);
}

BOOST_AUTO_TEST_CASE(each_message_answers_through_its_own_sink_and_done_follows_its_last_message) {
  // What Streamable HTTP relies on: a POST's sink gets only what that POST caused, and its
  // exchange is over when `done` runs.
  Gate gate;
  McpServer server(ServerInfo{"krino", "krino", "1"}, slow_tools(gate), 2);
  McpSession session(server);
  std::mutex mutex;
  std::vector<std::string> first, second, notification;
  bool first_done = false, second_done = false, notification_done = false;
  const auto collect = [&](std::vector<std::string>& into) {
    return [&mutex, &into](std::string message) {
      std::lock_guard lock(mutex);
      into.push_back(std::move(message));
    };
  };
  const auto mark = [&](bool& flag, const std::vector<std::string>& sent, std::size_t expected) {
    return [&mutex, &flag, &sent, expected] {
      std::lock_guard lock(mutex);
      BOOST_TEST(sent.size() == expected);  // after its last message, never before
      flag = true;
    };
  };
  session.receive(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","_meta":{"progressToken":1}}})",
                  collect(first), mark(first_done, first, 4));
  session.receive(R"({"jsonrpc":"2.0","id":2,"method":"ping"})", collect(second), mark(second_done, second, 1));
  BOOST_TEST(second_done);  // answered before receive returned
  session.receive(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", collect(notification),
                  mark(notification_done, notification, 0));
  BOOST_TEST(notification_done);
  session.wait_idle();
  std::lock_guard lock(mutex);
  BOOST_TEST(first_done);
  BOOST_TEST(first.size() == 4u);  // three progress notifications and the answer, all its own
  BOOST_TEST(second.size() == 1u);
  BOOST_TEST(notification.empty());
}

BOOST_AUTO_TEST_SUITE_END()
