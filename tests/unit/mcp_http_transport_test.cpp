// MCP over Streamable HTTP at /mcp (core/server/mcp_http_transport): a real ResultsServer on a
// loopback port and a SQLite file, with test tools. Session ids, Origin and Host checks, the
// media types, JSON and SSE answers, progress, cancellation, keys, and a stop during a tool call.
#include "krino/core/mcp/mcp_server.hpp"
#include "krino/core/server/results_server.hpp"

#include "scratch_directory.hpp"
#include "test_http_client.hpp"

#include <krino/json_parse.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>

using namespace krino::core;
using krino::fake_llm::test::HttpCall;
using krino::fake_llm::test::HttpResult;
using krino::fake_llm::test::TestHttpClient;
namespace json = boost::json;

namespace {

// The "wait" tool blocks until the test opens the gate or its call is cancelled.
struct Gate {
  std::mutex mutex;
  std::condition_variable changed;
  bool started = false;
  bool open = false;
  bool saw_cancellation = false;

  void wait_started() {
    std::unique_lock lock(mutex);
    BOOST_REQUIRE(changed.wait_for(lock, std::chrono::seconds(10), [this] { return started; }));
  }
};

mcp::ToolRegistry http_test_tools(Gate& gate) {
  mcp::ToolRegistry tools;
  mcp::McpTool wait;
  wait.name = "wait";
  wait.title = "Wait";
  wait.description = "Waits for the test";
  wait.input_schema = mcp::schema_object(R"({"type":"object"})");
  wait.output_schema = mcp::schema_object(R"({"type":"object"})");
  wait.handler = [&gate](const json::object&, const mcp::ToolContext& context) {
    std::unique_lock lock(gate.mutex);
    gate.started = true;
    gate.changed.notify_all();
    while (!gate.open && !context.cancelled()) gate.changed.wait_for(lock, std::chrono::milliseconds(5));
    gate.saw_cancellation = context.cancelled();
    return mcp::ToolResult{};
  };
  tools.add(std::move(wait));
  mcp::McpTool count;
  count.name = "count";
  count.title = "Count";
  count.description = "Reports progress";
  count.input_schema = mcp::schema_object(R"({"type":"object"})");
  count.output_schema = mcp::schema_object(R"({"type":"object"})");
  count.handler = [](const json::object&, const mcp::ToolContext& context) {
    context.report_progress(1, 2, "half");
    context.report_progress(2, 2, "all");
    mcp::ToolResult result;
    result.structured["counted"] = 2;
    return result;
  };
  tools.add(std::move(count));
  mcp::McpTool scope;
  scope.name = "scope";
  scope.title = "Scope";
  scope.description = "Says which tenant's rows the call sees";
  scope.input_schema = mcp::schema_object(R"({"type":"object"})");
  scope.output_schema = mcp::schema_object(R"({"type":"object"})");
  scope.handler = [](const json::object&, const mcp::ToolContext& context) {
    mcp::ToolResult result;
    if (context.scope().tenant) result.structured["tenant"] = *context.scope().tenant;
    else result.structured["tenant"] = nullptr;
    return result;
  };
  tools.add(std::move(scope));
  return tools;
}

using Headers = std::vector<std::pair<std::string, std::string>>;

const std::string kInitialize =
    R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})";

struct McpHttpFixture {
  explicit McpHttpFixture(std::optional<std::string> key = std::nullopt, std::vector<std::string> origins = {}) {
    server::ResultsServerOptions options;
    options.database = (scratch / "krino.db").string();
    options.http.port = 0;
    options.http.handler_threads = 1;  // a tool call that held a handler thread would stall every test
    options.io_threads = 1;
    options.auth.legacy_key = std::move(key);
    options.mcp.allowed_origins = std::move(origins);
    options.make_mcp_server = [this](store::Store&) {
      return std::make_unique<mcp::McpServer>(mcp::ServerInfo{"krino", "krino", "1"}, http_test_tools(gate), 2);
    };
    results = std::make_unique<server::ResultsServer>(options);
    results->start();
  }
  ~McpHttpFixture() { results->stop(std::chrono::seconds(10)); }

  // One POST /mcp on a fresh connection, with an MCP client's headers unless `headers` replace them.
  HttpResult post(const std::string& body, Headers headers = {}, bool client_headers = true) {
    HttpCall call;
    call.target = "/mcp";
    call.body = body;
    call.deadline = std::chrono::seconds(20);
    if (client_headers) call.headers = {{"Accept", "application/json, text/event-stream"}};
    if (!session.empty()) call.headers.emplace_back("Mcp-Session-Id", session);
    for (auto& header : headers) call.headers.push_back(std::move(header));
    return TestHttpClient(results->port()).send(call);
  }
  HttpResult request(const std::string& method, Headers headers = {}) {
    HttpCall call;
    call.method = method;
    call.target = "/mcp";
    call.headers = std::move(headers);
    if (!session.empty()) call.headers.emplace_back("Mcp-Session-Id", session);
    return TestHttpClient(results->port()).send(call);
  }
  void initialize() {
    const HttpResult answer = post(kInitialize);
    BOOST_REQUIRE_EQUAL(answer.status(), 200u);
    session = std::string(answer.response["Mcp-Session-Id"]);
    BOOST_REQUIRE_EQUAL(session.size(), 32u);
  }

  // The JSON messages of an SSE body, in order.
  static std::vector<json::value> events(const std::string& body) {
    std::vector<json::value> messages;
    std::size_t at = 0;
    while ((at = body.find("data: ", at)) != std::string::npos) {
      const std::size_t end = body.find('\n', at);
      messages.push_back(krino::json::parse(body.substr(at + 6, end - at - 6)));
      at = end;
    }
    return messages;
  }

  krino::test::ScratchDirectory scratch;
  Gate gate;
  std::unique_ptr<server::ResultsServer> results;
  std::string session;
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(mcp_http_transport, McpHttpFixture)

BOOST_AUTO_TEST_CASE(initialize_issues_a_session_that_every_later_message_must_carry) {
  const HttpResult before = post(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
  BOOST_TEST(before.status() == 400u);  // no session yet
  BOOST_TEST(before.body().find("Mcp-Session-Id") != std::string::npos, before.body());

  initialize();
  const HttpResult again = post(kInitialize);
  BOOST_TEST(again.status() == 400u);  // initialize with a session id

  const HttpResult initialized = post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  BOOST_TEST(initialized.status() == 202u);
  BOOST_TEST(initialized.body().empty());
  const HttpResult ping = post(R"({"jsonrpc":"2.0","id":1,"method":"ping"})", {{"MCP-Protocol-Version", "2025-11-25"}});
  BOOST_TEST(ping.status() == 200u);
  BOOST_TEST(std::string(ping.response["Content-Type"]) == "application/json");
  BOOST_TEST(ping.body() == R"({"jsonrpc":"2.0","id":1,"result":{}})");
  BOOST_TEST(post(R"({"jsonrpc":"2.0","id":2,"method":"ping"})", {{"MCP-Protocol-Version", "1999-01-01"}}).status() == 400u);
  BOOST_TEST(post(R"({"jsonrpc":"2.0","id":2,"method":"ping"})", {{"MCP-Protocol-Version", "2024-11-05"}}).status() == 400u);  // HTTP+SSE, not this
  BOOST_TEST(post(R"({"jsonrpc":"2.0","id":2,"method":"ping"})", {{"MCP-Protocol-Version", "2025-03-26"}}).status() == 200u);  // the same transport

  const std::string ended = session;
  BOOST_TEST(request("DELETE").status() == 204u);
  BOOST_TEST(post(R"({"jsonrpc":"2.0","id":3,"method":"ping"})").status() == 404u);
  session = "0123456789abcdef0123456789abcdef";
  BOOST_TEST(post(R"({"jsonrpc":"2.0","id":4,"method":"ping"})").status() == 404u);
  BOOST_TEST(request("DELETE").status() == 404u);
}

BOOST_AUTO_TEST_CASE(get_is_405_because_krino_offers_no_server_stream) {
  initialize();
  const HttpResult get = request("GET", {{"Accept", "text/event-stream"}});
  BOOST_TEST(get.status() == 405u);
  BOOST_TEST(std::string(get.response["Allow"]) == "DELETE, POST");
}

BOOST_AUTO_TEST_CASE(foreign_origins_and_hosts_are_refused) {
  const HttpResult evil = post(kInitialize, {{"Origin", "http://evil.example.com"}});
  BOOST_TEST(evil.status() == 403u);
  BOOST_TEST(evil.body().find("origin_not_allowed") != std::string::npos, evil.body());
  BOOST_TEST(post(kInitialize, {{"Origin", "null"}}).status() == 403u);
  BOOST_TEST(post(kInitialize, {{"Origin", "http://localhost.evil.com"}}).status() == 403u);
  BOOST_TEST(post(kInitialize, {{"Origin", "http://127.0.0.1.evil.com"}}).status() == 403u);
  BOOST_TEST(post(kInitialize, {{"Host", "127.0.0.1.evil.com"}}).status() == 403u);
  // DNS rebinding: a foreign name resolved to this loopback server.
  const HttpResult rebound = post(kInitialize, {{"Host", "evil.example.com:8080"}});
  BOOST_TEST(rebound.status() == 403u);
  BOOST_TEST(rebound.body().find("host_not_allowed") != std::string::npos, rebound.body());
  BOOST_TEST(post(kInitialize, {{"Origin", "http://localhost:5173"}}).status() == 200u);
  BOOST_TEST(post(kInitialize, {{"Origin", "http://127.0.0.1:5173"}, {"Host", "localhost:1"}}).status() == 200u);
  BOOST_TEST(post(kInitialize, {{"Origin", "http://[::1]:5173"}}).status() == 200u);
  BOOST_TEST(post(kInitialize, {{"Origin", "http://127.0.0.2"}, {"Host", "127.1.2.3:80"}}).status() == 200u);
}

BOOST_AUTO_TEST_CASE(media_types_and_bodies_are_checked) {
  BOOST_TEST(post(kInitialize, {{"Content-Type", "text/plain"}}).status() == 415u);
  BOOST_TEST(post(kInitialize, {{"Accept", "application/json"}}, false).status() == 406u);
  BOOST_TEST(post(kInitialize, {{"Accept", "*/*"}}, false).status() == 200u);
  const HttpResult garbage = post("{not json");
  BOOST_TEST(garbage.status() == 400u);
  BOOST_TEST(krino::json::parse(garbage.body()).at("error").at("code") == json::value(-32700));
  const HttpResult batch = post("[" + kInitialize + "]");
  BOOST_TEST(batch.status() == 400u);
  BOOST_TEST(krino::json::parse(batch.body()).at("error").at("code") == json::value(-32600));
}

BOOST_AUTO_TEST_CASE(a_tool_call_is_an_event_stream_of_its_progress_then_its_answer) {
  initialize();
  const HttpResult called =
      post(R"({"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"count","arguments":{},"_meta":{"progressToken":"p"}}})");
  BOOST_TEST(called.status() == 200u);
  BOOST_TEST(std::string(called.response["Content-Type"]) == "text/event-stream");
  BOOST_TEST(called.response.chunked());
  const std::vector<json::value> messages = events(called.body());
  BOOST_REQUIRE_EQUAL(messages.size(), 3u);
  BOOST_TEST(messages[0].at("method") == json::value("notifications/progress"));
  BOOST_TEST(messages[0].at("params").at("progress") == json::value(1.0));
  BOOST_TEST(messages[1].at("params").at("message") == json::value("all"));
  BOOST_TEST(messages[2].at("id") == json::value("c1"));
  BOOST_TEST(messages[2].at("result").at("structuredContent").at("counted") == json::value(2));

  const HttpResult unknown = post(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nope"}})");
  const std::vector<json::value> refused = events(unknown.body());
  BOOST_REQUIRE_EQUAL(refused.size(), 1u);
  BOOST_TEST(refused[0].at("error").at("code") == json::value(-32602));
}

BOOST_AUTO_TEST_CASE(a_running_tool_holds_no_handler_thread_and_a_cancelled_one_ends_its_stream_unanswered) {
  initialize();
  auto call = std::async(std::launch::async, [this] {
    return post(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wait","arguments":{}}})");
  });
  gate.wait_started();
  // The server's one handler thread answers while the tool runs.
  BOOST_TEST(post(R"({"jsonrpc":"2.0","id":8,"method":"ping"})").status() == 200u);
  BOOST_TEST(post(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}})").status() == 202u);
  const HttpResult cancelled = call.get();
  BOOST_TEST(cancelled.status() == 200u);
  BOOST_TEST(!cancelled.error.failed(), cancelled.error.message());
  BOOST_TEST(events(cancelled.body()).empty(), cancelled.body());
  BOOST_TEST(gate.saw_cancellation);
}

BOOST_AUTO_TEST_CASE(stopping_the_server_cancels_a_running_tool_call) {
  initialize();
  auto call = std::async(std::launch::async, [this] {
    return post(R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"wait","arguments":{}}})");
  });
  gate.wait_started();
  const auto started = std::chrono::steady_clock::now();
  BOOST_TEST(results->stop(std::chrono::seconds(10)));
  BOOST_TEST((std::chrono::steady_clock::now() - started < std::chrono::seconds(5)));
  BOOST_TEST(gate.saw_cancellation);
  BOOST_TEST(events(call.get().body()).empty());
}

BOOST_AUTO_TEST_SUITE_END()

namespace {
struct KeyedFixture : McpHttpFixture {
  KeyedFixture() : McpHttpFixture(std::string("krino_secret")) {}
};
struct ProxiedFixture : McpHttpFixture {
  ProxiedFixture() : McpHttpFixture(std::nullopt, {"https://Agent.Example.com"}) {}
};
}  // namespace

BOOST_FIXTURE_TEST_CASE(mcp_http_needs_a_key_once_keys_are_in_use, KeyedFixture) {
  BOOST_TEST(post(kInitialize).status() == 401u);
  BOOST_TEST(post(kInitialize, {{"Authorization", "Bearer wrong"}}).status() == 401u);
  BOOST_TEST(post(kInitialize, {{"Authorization", "Bearer krino_secret"}}).status() == 200u);
}

// A tenant key's tool calls see and stamp its tenant's rows only, as its REST calls do: without
// this, list_experiments over /mcp would show every tenant's runs to any EDITOR key.
BOOST_FIXTURE_TEST_CASE(a_tenant_keys_tool_calls_are_scoped_to_its_tenant, KeyedFixture) {
  HttpCall create;
  create.method = "POST";
  create.target = "/api/v1/api-keys";
  create.body = R"({"name":"acme-ci","role":"EDITOR","tenantId":"acme"})";
  create.headers = {{"Authorization", "Bearer krino_secret"}, {"Content-Type", "application/json"}};
  const HttpResult created = TestHttpClient(results->port()).send(create);
  BOOST_REQUIRE_EQUAL(created.status(), 201u);
  const std::string tenant_key(krino::json::parse(created.body()).as_object().at("key").as_string());

  auto scope_seen_with = [this](const std::string& key) {
    session.clear();
    const Headers auth{{"Authorization", "Bearer " + key}};
    const HttpResult opened = post(kInitialize, auth);
    BOOST_REQUIRE_EQUAL(opened.status(), 200u);
    session = std::string(opened.response["Mcp-Session-Id"]);
    const HttpResult called = post(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"scope","arguments":{}}})", auth);
    BOOST_REQUIRE_EQUAL(called.status(), 200u);
    const std::vector<json::value> messages = events(called.body());
    BOOST_REQUIRE(!messages.empty());
    return messages.back().at("result").at("structuredContent").at("tenant");
  };
  BOOST_TEST(scope_seen_with(tenant_key) == json::value("acme"));
  BOOST_TEST(scope_seen_with("krino_secret").is_null());
}

BOOST_FIXTURE_TEST_CASE(mcp_http_allows_the_origins_it_is_told, ProxiedFixture) {
  BOOST_TEST(post(kInitialize, {{"Origin", "https://agent.example.com"}}).status() == 200u);
  BOOST_TEST(post(kInitialize, {{"Origin", "https://agent.example.com"}, {"Host", "agent.example.com"}}).status() == 200u);
  BOOST_TEST(post(kInitialize, {{"Origin", "http://agent.example.com"}}).status() == 403u);  // another scheme, another origin
}
