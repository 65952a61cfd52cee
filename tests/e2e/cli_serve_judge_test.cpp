// The server judge on two `krino serve` processes sharing one PostgreSQL database, against the fake
// LLM server (docs/server.md, "The server judge"):
// - a big run split into pages is judged by both replicas, every item exactly once (the fake
//   server counts the model calls), with a connection's inline key sealed by one replica and opened
//   by both, and in no answer or log line;
// - a replica killed (SIGKILL) while it judges a page leaves the page leased; when the lease runs
//   out the other replica claims it again and finishes the job.
#include "postgres_cluster.hpp"
#include "process.hpp"
#include "serve_process.hpp"
#include "test_http_client.hpp"

#include "fake_llm_server.hpp"

#include <boost/test/unit_test.hpp>

#include <krino/json_parse.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <thread>

using namespace krino::test;
using krino::fake_llm::test::HttpResult;
using Clock = std::chrono::steady_clock;

namespace {

PostgresCluster& judge_cluster() {
  static PostgresCluster cluster;
  return cluster;
}

constexpr const char* kJudgeKey = "sk-e2e-judge-never-print-me";

std::vector<std::string> judge_replica_options(const std::string& database, const std::string& lease_ms, const std::string& page_size) {
  return {"--database", database, "--job-poll-ms", "50", "--job-lease-ms", lease_ms, "--job-slots", "2", "--judge-page-size", page_size};
}


// An ended run of `n` items (q0 ..), and a connection to the fake server; returns {run, connection}.
std::pair<std::string, std::string> judged_setup(unsigned short port, const krino::fake_llm::FakeLlmServer& fake, int n) {
  const std::string run(serve_api_json(port, "POST", "/api/v1/projects/judged/runs", R"({"experimentName":"qa"})", 201).at("runId").as_string());
  for (int from = 0; from < n; from += 500) {
    std::string items = R"({"items":[)";
    for (int i = from; i < std::min(n, from + 500); ++i) {
      if (i > from) items += ',';
      items += R"({"inputs":{"input":"q)" + std::to_string(i) + R"("},"actualOutputs":{"output":"a"},"success":true})";
    }
    serve_api_json(port, "POST", "/api/v1/runs/" + run + "/items", items + "]}", 201);
  }
  serve_api_json(port, "PATCH", "/api/v1/runs/" + run, R"({"status":"SUCCESS"})");
  const std::string connection(serve_api_json(port, "POST", "/api/v1/llm-connections",
                                              R"({"name":"fake","baseUrl":")" + fake.base_url() +
                                                  R"(/v1","model":"judge-mini","credentialRef":"KRINO_E2E_JUDGE_KEY","maxConcurrency":8,"timeoutMs":5000})",
                                              201)
                                   .at("id")
                                   .as_string());
  return {run, connection};
}

std::string start_judge(unsigned short port, const std::string& run, const std::string& connection) {
  return std::string(serve_api_json(port, "POST", "/api/v1/runs/" + run + "/judge-jobs",
                                    R"({"connectionId":")" + connection + R"(","evaluatorName":"helpful","criteria":"Helpful?","minScore":0,"maxScore":1})",
                                    201)
                         .at("id")
                         .as_string());
}

boost::json::object wait_finished(unsigned short port, const std::string& run, std::chrono::seconds limit) {
  const auto deadline = Clock::now() + limit;
  while (Clock::now() < deadline) {
    const auto jobs = serve_api_json(port, "GET", "/api/v1/runs/" + run + "/judge-jobs").as_array();
    if (!jobs.empty() && !jobs.back().at("finishedAt").is_null()) return jobs.back().as_object();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  BOOST_FAIL("the judge job did not end in time");
  return {};
}

std::size_t scored_results(unsigned short port, const std::string& run, const std::string& job) {
  std::size_t scored = 0;
  std::int64_t after = -1;
  for (;;) {
    const auto page = serve_api_json(port, "GET", "/api/v1/runs/" + run + "/judge-jobs/" + job + "/results?size=1000" +
                                                      (after < 0 ? std::string() : "&after=" + std::to_string(after)));
    for (const auto& one : page.at("content").as_array())
      if (!one.at("score").is_null()) ++scored;
    if (page.at("nextAfter").is_null()) break;
    after = page.at("nextAfter").as_int64();
  }
  return scored;
}

std::string non_access_lines(const std::string& path) {
  std::string out;
  std::istringstream lines(read_file(path));
  for (std::string line; std::getline(lines, line);)
    if (line.find("\"event\":\"http_request\"") == std::string::npos) out.append(line).append("\n");
  return out;
}

krino::fake_llm::ServerOptions fake_judge(std::uint32_t latency_ms) {
  krino::fake_llm::ServerOptions options;
  options.script = krino::fake_llm::parse_script(R"({"default":{"content":"{\"score\": 1, \"reason\": \"fine\"}"}})");
  options.latency_ms = latency_ms;
  options.required_key = kJudgeKey;
  return options;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_serve_judge)

BOOST_AUTO_TEST_CASE(two_replicas_judge_every_item_of_a_big_run_exactly_once) {
  // The connection's key is inline here: sealed by the replica that stores it, opened by whichever
  // judges a page (both have the same KRINO_ENCRYPTION_KEY).
  ::setenv("KRINO_ENCRYPTION_KEY", "q0kS9Ue0m4b3nYJ4eQ3sB3y8xJ0m2W5r0cXzQ9bq6Yk=", 1);
  ::unsetenv("KRINO_E2E_JUDGE_KEY");
  krino::fake_llm::FakeLlmServer fake(fake_judge(20));
  const std::string database = judge_cluster().new_database();
  const std::string a_log = temp_path("judge-a.log");
  const std::string b_log = temp_path("judge-b.log");
  ServeProcess a(unused_port(), judge_replica_options(database, "15000", "25"), a_log);
  ServeProcess b(unused_port(), judge_replica_options(database, "15000", "25"), b_log);
  constexpr int kItems = 1000;
  [[maybe_unused]] const auto [run, env_connection] = judged_setup(a.port(), fake, kItems);
  const std::string connection(serve_api_json(a.port(), "POST", "/api/v1/llm-connections",
                                              R"({"name":"inline","baseUrl":")" + fake.base_url() + R"(/v1","model":"judge-mini","apiKey":")" +
                                                  kJudgeKey + R"(","maxConcurrency":8})",
                                              201)
                                   .at("id")
                                   .as_string());
  const std::string job = start_judge(b.port(), run, connection);
  const auto ended = wait_finished(a.port(), run, std::chrono::seconds(120));
  BOOST_TEST_INFO("replica A:\n" << non_access_lines(a_log) << "replica B:\n" << non_access_lines(b_log));
  BOOST_TEST(ended.at("status").as_string() == "SUCCEEDED");
  BOOST_TEST(ended.at("itemsScored").as_int64() == kItems);
  BOOST_TEST(ended.at("pagesDone").as_int64() == kItems / 25);
  BOOST_TEST(fake.request_count() == static_cast<std::uint64_t>(kItems));  // each item asked once
  BOOST_TEST(scored_results(b.port(), run, job) == static_cast<std::size_t>(kItems));
  BOOST_TEST(serve_api_json(b.port(), "GET", "/api/v1/runs/" + run).at("status").as_string() == "SUCCESS");
  // Both replicas took pages.
  for (ServeProcess* replica : {&a, &b}) {
    const HttpResult metrics = serve_api(replica->port(), "GET", "/metrics");
    BOOST_TEST(metrics.body().find("krino_judge_pages_total{outcome=\"written\"} 0\n") == std::string::npos, metrics.body());
  }
  // The key is in no answer and no log line of either replica.
  BOOST_TEST(serve_api(a.port(), "GET", "/api/v1/llm-connections").body().find(kJudgeKey) == std::string::npos);
  a.stop(SIGTERM);
  b.stop(SIGTERM);
  BOOST_TEST(read_file(a_log).find(kJudgeKey) == std::string::npos);
  BOOST_TEST(read_file(b_log).find(kJudgeKey) == std::string::npos);
  std::filesystem::remove(a_log);
  std::filesystem::remove(b_log);
}

BOOST_AUTO_TEST_CASE(a_replica_killed_mid_page_has_its_page_finished_by_the_other) {
  ::setenv("KRINO_E2E_JUDGE_KEY", kJudgeKey, 1);  // the replicas inherit it: the connection names it
  krino::fake_llm::FakeLlmServer fake(fake_judge(1500));  // slow: A is surely mid-page when it dies
  const std::string database = judge_cluster().new_database();
  const std::string a_log = temp_path("judge-killed-a.log");
  const std::string b_log = temp_path("judge-killed-b.log");
  ServeProcess a(unused_port(), judge_replica_options(database, "3000", "40"), a_log);
  const auto [run, connection] = judged_setup(a.port(), fake, 40);  // one page
  const std::string job = start_judge(a.port(), run, connection);
  const auto asked = Clock::now() + std::chrono::seconds(30);
  while (fake.request_count() == 0 && Clock::now() < asked) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  BOOST_REQUIRE_MESSAGE(fake.request_count() > 0, "replica A never asked the model:\n" + non_access_lines(a_log));
  BOOST_TEST(a.stop(SIGKILL) == 128 + SIGKILL);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // requests A sent just before it died are counted by now
  const std::uint64_t asked_by_a = fake.request_count();
  // B starts after A died: the page is still leased to A until its lease (3 s) runs out.
  ServeProcess b(unused_port(), judge_replica_options(database, "3000", "40"), b_log);
  const auto ended = wait_finished(b.port(), run, std::chrono::seconds(90));
  BOOST_TEST_INFO("replica A:\n" << non_access_lines(a_log) << "replica B:\n" << non_access_lines(b_log));
  BOOST_TEST(ended.at("status").as_string() == "SUCCEEDED");
  BOOST_TEST(ended.at("itemsScored").as_int64() == 40);
  BOOST_TEST(scored_results(b.port(), run, job) == 40u);
  BOOST_TEST(fake.request_count() == asked_by_a + 40);  // B judged the whole page again; A wrote nothing
  BOOST_TEST(serve_api_json(b.port(), "GET", "/api/v1/runs/" + run).at("status").as_string() == "SUCCESS");
  std::filesystem::remove(a_log);
  std::filesystem::remove(b_log);
}

BOOST_AUTO_TEST_SUITE_END()
