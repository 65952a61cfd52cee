// `krino serve` as a process: it starts on a fresh data directory, answers health and the run
// endpoints over loopback, stops gracefully on SIGTERM with exit 0, and a second start on the same
// database finds what the first one stored.
#include "process.hpp"
#include "postgres_cluster.hpp"
#include "test_http_client.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/test/unit_test.hpp>

#include <krino/json_parse.hpp>

#include <csignal>
#include <filesystem>

using namespace krino::test;
using krino::fake_llm::test::HttpCall;
using krino::fake_llm::test::HttpResult;
using krino::fake_llm::test::TestHttpClient;

namespace {

// A port nothing listens on right now (the system's choice for a socket bound to port 0).
unsigned short free_port() {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return acceptor.local_endpoint().port();
}

HttpResult call(TestHttpClient& client, std::string method, std::string target, std::string body = "") {
  HttpCall request;
  request.method = std::move(method);
  request.target = std::move(target);
  request.body = std::move(body);
  return client.send(request);
}

// Runs `krino serve` until `scenario` (given a client connected to it) returns, then sends SIGTERM.
ProcessResult serve_while(const std::vector<std::string>& storage, const std::function<void(TestHttpClient&)>& scenario) {
  const unsigned short port = free_port();
  ProcessOptions options;
  options.interrupt_signal = SIGTERM;
  options.interrupt_when = [&] {
    try {
      TestHttpClient client(port);
      scenario(client);
      return true;
    } catch (const std::exception&) {
      return false;  // not listening yet
    }
  };
  std::vector<std::string> argv = {krino_binary(), "serve", "--listen", "127.0.0.1:" + std::to_string(port)};
  argv.insert(argv.end(), storage.begin(), storage.end());
  return run_process(argv, options);
}

// Serves a run, stops on SIGTERM, and serves it again after a restart on the same storage.
void serve_restart_and_read_back(const std::vector<std::string>& storage, const std::string& database_shown) {
  std::string run_id;
  const ProcessResult first = serve_while(storage, [&](TestHttpClient& client) {
    BOOST_TEST(call(client, "GET", "/healthz").status() == 200u);
    const HttpResult ready = call(client, "GET", "/readyz");
    BOOST_TEST(ready.status() == 200u);
    BOOST_TEST(ready.body().find("\"database\":\"" + database_shown + "\"") != std::string::npos, ready.body());
    const HttpResult created = call(client, "POST", "/api/v1/projects/demo/runs", R"({"experimentName":"qa"})");
    BOOST_REQUIRE_EQUAL(created.status(), 201u);
    run_id = std::string(krino::json::parse(created.body()).at("runId").as_string());
    BOOST_TEST(call(client, "POST", "/api/v1/runs/" + run_id + "/items", R"({"items":[{"success":true,"inputs":{"x":0.1}}]})").status() == 201u);
    BOOST_TEST(call(client, "PATCH", "/api/v1/runs/" + run_id, R"({"status":"SUCCESS"})").status() == 200u);
    const HttpResult metrics = call(client, "GET", "/metrics");
    BOOST_TEST(metrics.status() == 200u);
    BOOST_TEST(metrics.body().find("krino_http_requests_total{method=\"POST\",code=\"201\"} 2") != std::string::npos, metrics.body());
    BOOST_TEST(metrics.body().find("krino_http_request_duration_seconds_count ") != std::string::npos, metrics.body());
  });
  BOOST_TEST(first.exit_code == 0, first.err);
  BOOST_TEST(first.err.find("krino serve: stopped") != std::string::npos, first.err);
  BOOST_TEST(first.err.find("\"path\":\"/api/v1/projects/demo/runs\"") != std::string::npos, first.err);  // the access log

  const ProcessResult second = serve_while(storage, [&](TestHttpClient& client) {
    const HttpResult read = call(client, "GET", "/api/v1/runs/" + run_id);
    BOOST_TEST(read.status() == 200u);
    BOOST_TEST(read.body().find("\"inputs\":{\"x\":0.1}") != std::string::npos, read.body());
    BOOST_TEST(read.body().find("\"status\":\"SUCCESS\"") != std::string::npos, read.body());
  });
  BOOST_TEST(second.exit_code == 0, second.err);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_serve)

BOOST_AUTO_TEST_CASE(serves_runs_stops_on_sigterm_and_keeps_them_across_restarts_on_sqlite) {
  const std::string data_dir = temp_path("serve-data");
  std::filesystem::remove_all(data_dir);
  serve_restart_and_read_back({"--data-dir", data_dir}, "sqlite");
  BOOST_TEST(std::filesystem::exists(data_dir + "/krino.db"));
  std::filesystem::remove_all(data_dir);
}

BOOST_AUTO_TEST_CASE(serves_runs_stops_on_sigterm_and_keeps_them_across_restarts_on_postgresql) {
  static PostgresCluster cluster;
  serve_restart_and_read_back({"--database", cluster.new_database()}, "postgresql");
}

BOOST_AUTO_TEST_CASE(an_unreachable_postgresql_is_a_runtime_error_that_does_not_show_the_password) {
  const ProcessResult result = run_process({krino_binary(), "serve", "--listen", "127.0.0.1:0", "--database", "postgresql://krino:s3cret@127.0.0.1:1/none"});
  BOOST_TEST(result.exit_code == 3, result.err);
  BOOST_TEST(result.err.find("PostgreSQL") != std::string::npos, result.err);
  BOOST_TEST(result.err.find("s3cret") == std::string::npos, result.err);
}

BOOST_AUTO_TEST_CASE(a_bad_listen_address_is_a_usage_error) {
  const ProcessResult bad_port = run_process({krino_binary(), "serve", "--listen", "127.0.0.1:99999"});
  BOOST_TEST(bad_port.exit_code == 2);
  BOOST_TEST(bad_port.err.find("--listen") != std::string::npos, bad_port.err);
  const ProcessResult not_an_address = run_process({krino_binary(), "serve", "--listen", "localhost-ish:8080", "--data-dir", temp_path("serve-bad")});
  BOOST_TEST(not_an_address.exit_code == 2, not_an_address.err);
}

BOOST_AUTO_TEST_SUITE_END()
