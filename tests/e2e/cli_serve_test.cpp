// `krino serve` as a process: it starts on a fresh data directory, answers health and the run
// endpoints over loopback, stops gracefully on SIGTERM with exit 0, and a second start on the same
// database finds what the first one stored.
#include "process.hpp"
#include "postgres_cluster.hpp"
#include "serve_process.hpp"
#include "test_http_client.hpp"

#include <boost/test/unit_test.hpp>

#include <krino/json_parse.hpp>

#include <csignal>
#include <filesystem>

using namespace krino::test;
using krino::fake_llm::test::HttpCall;
using krino::fake_llm::test::HttpResult;
using krino::fake_llm::test::TestHttpClient;

namespace {

HttpResult call(TestHttpClient& client, std::string method, std::string target, std::string body = "") {
  HttpCall request;
  request.method = std::move(method);
  request.target = std::move(target);
  request.body = std::move(body);
  return client.send(request);
}

// Runs `krino serve` until `scenario` (given a client connected to it) returns, then sends SIGTERM.
ProcessResult serve_while(const std::vector<std::string>& storage, const std::function<void(TestHttpClient&)>& scenario) {
  const unsigned short port = unused_port();
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
    BOOST_TEST(metrics.body().find("krino_ingest_items_total 1\n") != std::string::npos, metrics.body());
    BOOST_TEST(metrics.body().find("krino_runs_ended_total 1\n") != std::string::npos, metrics.body());
    BOOST_TEST(metrics.body().find("krino_http_handlers_pending 1\n") != std::string::npos, metrics.body());  // this request
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

BOOST_AUTO_TEST_CASE(krino_gate_server_prints_the_servers_verdict_and_fails_ci_on_a_regression) {
  const std::string data_dir = temp_path("serve-gate");
  std::filesystem::remove_all(data_dir);
  const unsigned short port = unused_port();
  auto items = [](int failing) {
    std::string body = R"({"items":[)";
    for (int i = 0; i < 30; ++i)
      body += std::string(i > 0 ? "," : "") + R"({"inputs":{"n":)" + std::to_string(i) + R"(},"success":)" + (i < failing ? "false" : "true") +
              R"(,"evalResults":[{"name":"exact","score":)" + (i < failing ? "0.0" : "1.0") + R"(,"success":)" +
              (i < failing ? "false" : "true") + "}]}";
    return body + "]}";
  };
  ProcessOptions options;
  options.interrupt_signal = SIGTERM;
  std::string experiment;
  std::vector<ProcessResult> gates;
  options.interrupt_when = [&] {
    try {
      TestHttpClient client(port);
      std::vector<std::string> runs;
      for (int failing : {0, 20}) {
        const HttpResult created = call(client, "POST", "/api/v1/projects/demo/runs", R"({"experimentName":"qa"})");
        const auto object = krino::json::parse(created.body()).as_object();
        runs.emplace_back(object.at("runId").as_string());
        experiment = std::string(object.at("experimentId").as_string());
        call(client, "POST", "/api/v1/runs/" + runs.back() + "/items", items(failing));
        call(client, "PATCH", "/api/v1/runs/" + runs.back(), R"({"status":"SUCCESS"})");
      }
      const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/";
      const std::vector<std::string> gate = {krino_binary(), "gate", "--server", url, "--experiment", experiment, "--run-id"};
      auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> argv = gate;
        argv.insert(argv.end(), extra.begin(), extra.end());
        return run_process(argv);
      };
      gates.push_back(with({runs[1]}));
      gates.push_back(with({runs[1], "--json"}));
      gates.push_back(with({runs[1], "--no-fail-on-regression"}));
      gates.push_back(with({runs[0]}));
      gates.push_back(with({"0190a0b0-c0d0-7000-8000-000000000000"}));
      ProcessOptions from_env;
      from_env.environment = {"KRINO_SERVER_URL=" + url};
      gates.push_back(run_process({krino_binary(), "gate", "--experiment", experiment, "--run-id", runs[1]}, from_env));
      return true;
    } catch (const std::exception&) {
      return false;  // not listening yet
    }
  };
  const ProcessResult server =
      run_process({krino_binary(), "serve", "--listen", "127.0.0.1:" + std::to_string(port), "--data-dir", data_dir}, options);
  BOOST_TEST(server.exit_code == 0, server.err);
  BOOST_REQUIRE_EQUAL(gates.size(), 6u);
  BOOST_TEST(gates[0].exit_code == 1, gates[0].err);
  BOOST_TEST(gates[0].out.find("gate: FAIL") != std::string::npos, gates[0].out);
  BOOST_TEST(gates[0].out.find("regressed: exact 1 -> 0.333333") != std::string::npos, gates[0].out);
  BOOST_TEST(gates[1].exit_code == 1);
  BOOST_TEST(krino::json::parse(gates[1].out).at("regressedCount").as_int64() == 20);
  BOOST_TEST(gates[2].exit_code == 0, gates[2].err);
  BOOST_TEST(gates[3].exit_code == 0, gates[3].err);
  BOOST_TEST(gates[3].out.find("gate: NO_BASELINE") != std::string::npos, gates[3].out);
  BOOST_TEST(gates[4].exit_code == 3);
  BOOST_TEST(gates[4].err.find("the server answered 404") != std::string::npos, gates[4].err);
  BOOST_TEST(gates[5].exit_code == 1, gates[5].err);
  std::filesystem::remove_all(data_dir);
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

BOOST_AUTO_TEST_CASE(alert_settings_out_of_range_are_usage_errors) {
  const std::string data_dir = temp_path("serve-alert-flags");
  auto serve = [&](std::vector<std::string> flags) {
    std::vector<std::string> argv = {krino_binary(), "serve", "--listen", "127.0.0.1:0", "--data-dir", data_dir};
    argv.insert(argv.end(), flags.begin(), flags.end());
    return run_process(argv);
  };
  // A lease that could end while its POST still waits would let a second replica send the alert.
  const ProcessResult short_lease = serve({"--alert-lease-ms", "5000", "--alert-timeout-ms", "5000"});
  BOOST_TEST(short_lease.exit_code == 2);
  BOOST_TEST(short_lease.err.find("--alert-lease-ms (5000) must be longer than --alert-timeout-ms (5000)") != std::string::npos, short_lease.err);
  const ProcessResult no_attempts = serve({"--alert-attempts", "0"});
  BOOST_TEST(no_attempts.exit_code == 2);
  BOOST_TEST(no_attempts.err.find("--alert-attempts") != std::string::npos, no_attempts.err);
  const ProcessResult no_poll = serve({"--alert-poll-ms", "0"});
  BOOST_TEST(no_poll.exit_code == 2);
  BOOST_TEST(no_poll.err.find("--alert-poll-ms: Value 0 not in range") != std::string::npos, no_poll.err);
  std::filesystem::remove_all(data_dir);
}

BOOST_AUTO_TEST_SUITE_END()
