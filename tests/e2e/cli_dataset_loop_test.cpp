// The first half of the production loop with real processes, on SQLite and on PostgreSQL: push a
// dataset with `krino dataset push`, run against dataset://caps@1 reporting to `krino serve`, gate
// (no baseline), annotate the two misses (the gold answers were wrong), promote them, diff the
// versions, run against dataset://caps@latest and gate again: the second run takes the first as
// its baseline, paired by dataset item id, and passes with the two items fixed.
#include "process.hpp"
#include "postgres_cluster.hpp"
#include "serve_process.hpp"
#include "test_http_client.hpp"

#include <boost/test/unit_test.hpp>

#include <krino/json_parse.hpp>

#include <filesystem>
#include <set>

using namespace krino::test;
using krino::fake_llm::test::HttpCall;
using krino::fake_llm::test::TestHttpClient;
namespace fs = std::filesystem;

namespace {

struct LoopWorkspace {
  fs::path dir;
  LoopWorkspace() {
    std::string pattern = (fs::temp_directory_path() / "krino-loop-e2e-XXXXXX").string();
    BOOST_REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    dir = pattern;
  }
  ~LoopWorkspace() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string path(const std::string& name) const { return (dir / name).string(); }
};

boost::json::value call_json(unsigned short port, const std::string& method, const std::string& target, const std::string& body,
                             unsigned expected) {
  TestHttpClient client(port);
  HttpCall call;
  call.method = method;
  call.target = target;
  call.body = body;
  call.headers.emplace_back("Content-Type", "application/json");
  const auto result = client.send(call);
  BOOST_REQUIRE_MESSAGE(result.status() == expected, method + " " + target + ": " + std::to_string(result.status()) + " " + result.body());
  return krino::json::parse(result.body());
}

std::string run_id_from(const std::string& err) {
  const std::string marker = "server reporter: run ";
  const auto at = err.find(marker);
  BOOST_REQUIRE_MESSAGE(at != std::string::npos, err);
  const auto start = at + marker.size();
  return err.substr(start, err.find(':', start) - start);
}

void the_loop(const std::vector<std::string>& serve_options) {
  LoopWorkspace work;
  // Six capitals; the gold answers of es and it are wrong, so a right agent fails them.
  write_file(work.path("caps.jsonl"),
             "{\"id\":\"fr\",\"input\":\"France\",\"expectedOutput\":\"Paris\"}\n"
             "{\"id\":\"es\",\"input\":\"Spain\",\"expectedOutput\":\"Madird\"}\n"
             "{\"id\":\"it\",\"input\":\"Italy\",\"expectedOutput\":\"Milan\"}\n"
             "{\"id\":\"de\",\"input\":\"Germany\",\"expectedOutput\":\"Berlin\"}\n"
             "{\"id\":\"pt\",\"input\":\"Portugal\",\"expectedOutput\":\"Lisbon\"}\n"
             "{\"id\":\"pe\",\"input\":\"Peru\",\"expectedOutput\":\"Lima\"}\n");
  write_file(work.path("agent.py"),
             "import json, sys\n"
             "capitals = {'France': 'Paris', 'Spain': 'Madrid', 'Italy': 'Rome', 'Germany': 'Berlin', 'Portugal': 'Lisbon', 'Peru': 'Lima'}\n"
             "example = json.load(sys.stdin)\n"
             "print(json.dumps({'actualOutputs': {'output': capitals[example['inputs']['input']]}}))\n");
  const unsigned short port = unused_port();
  ServeProcess server(port, serve_options, work.path("serve.log"));
  const std::string url = "http://127.0.0.1:" + std::to_string(port);
  const std::vector<std::string> environment = {"KRINO_SERVER_URL=" + url, "XDG_CACHE_HOME=" + work.path("cache")};
  ProcessOptions with_server;
  with_server.environment = environment;

  const ProcessResult pushed = run_process({krino_binary(), "dataset", "push", work.path("caps.jsonl"), "--name", "caps"}, with_server);
  BOOST_REQUIRE_MESSAGE(pushed.exit_code == 0, pushed.err);
  BOOST_TEST(pushed.out.find("pushed caps@1: 6 items") != std::string::npos, pushed.out);

  const auto experiment_file = [&](const std::string& uri) {
    const std::string file = work.path("exp.yaml");
    write_file(file, "name: capitals\ndataset: " + uri + "\ntask: {kind: exec, command: [python3, " + work.path("agent.py") +
                         "], timeout_ms: 20000}\nevaluators: [exact_match]\nmin_pass_rate: 0\nreporters:\n  - server: {url: \"" + url +
                         "\", project: loop}\n");
    return file;
  };
  const auto gate = [&](const std::string& experiment, const std::string& run) {
    const ProcessResult gated =
        run_process({krino_binary(), "gate", "--server", url, "--experiment", experiment, "--run-id", run, "--json"}, with_server);
    BOOST_REQUIRE_MESSAGE(gated.exit_code == 0, gated.out + gated.err);
    return krino::json::parse(gated.out);
  };

  // Run 1 on caps@1: four pass, es and it fail; the run records its version and item ids.
  const ProcessResult first = run_process({krino_binary(), "run", experiment_file("dataset://caps@1")}, with_server);
  BOOST_REQUIRE_MESSAGE(first.exit_code == 0, first.err);
  const std::string first_run = run_id_from(first.err);
  const auto first_details = call_json(port, "GET", "/api/v1/runs/" + first_run, "", 200);
  BOOST_TEST(first_details.at("datasetVersion").as_string() == "caps@1");
  BOOST_TEST(first_details.at("passedItems").as_int64() == 4);
  const std::string experiment(first_details.at("experimentId").as_string());
  BOOST_TEST(gate(experiment, first_run).at("status").as_string() == "NO_BASELINE");

  // The review queue of the run: the two misses are judged (the model was right; the gold was
  // wrong, corrected) and promoted. The passes are judged too, and leave the queue.
  const auto queue = call_json(port, "GET", "/api/v1/review-queue?runId=" + first_run, "", 200);
  BOOST_REQUIRE_EQUAL(queue.at("totalElements").as_int64(), 6);
  std::string promoted = "{\"datasetName\":\"caps\",\"description\":\"two gold answers fixed\",\"items\":[";
  std::set<std::string> misses;
  for (const auto& entry : queue.at("content").as_array()) {
    const std::string item(entry.at("itemResultId").as_string());
    const std::string target = "/api/v1/runs/" + first_run + "/items/" + item + "/annotation";
    if (entry.at("success").as_bool()) {
      call_json(port, "PUT", target, R"({"verdict":"CORRECT"})", 200);
      continue;
    }
    misses.insert(std::string(entry.at("datasetItemId").as_string()));
    const std::string answer(entry.at("actualOutputs").at("output").as_string());
    call_json(port, "PUT", target, R"({"verdict":"CORRECT","note":"the gold answer was wrong","overriddenExpectedOutput":{"output":")" + answer + R"("}})", 200);
    promoted += (promoted.back() == '[' ? "" : ",") + std::string(R"({"itemResultId":")") + item + "\"}";
  }
  BOOST_TEST((misses == std::set<std::string>{"es", "it"}));
  BOOST_TEST(call_json(port, "GET", "/api/v1/review-queue?runId=" + first_run, "", 200).at("totalElements").as_int64() == 0);
  const auto version = call_json(port, "POST", "/api/v1/datasets/promote", promoted + "]}", 201);
  BOOST_TEST(version.at("version").as_int64() == 2);
  BOOST_TEST(version.at("itemCount").as_int64() == 6);

  // What the new version changes, for the pull request.
  const ProcessResult diff = run_process({krino_binary(), "dataset", "diff", "caps@1", "caps@2", "--json"}, with_server);
  BOOST_REQUIRE_MESSAGE(diff.exit_code == 0, diff.err);
  const auto changes = krino::json::parse(diff.out);
  BOOST_TEST(changes.at("added").as_array().empty());
  BOOST_TEST(changes.at("removed").as_array().empty());
  BOOST_REQUIRE_EQUAL(changes.at("changed").as_array().size(), 2u);
  BOOST_TEST(changes.at("changed").as_array()[0].at("id").as_string() == "es");
  BOOST_TEST(changes.at("changed").as_array()[0].at("after").at("output").as_string() == "Madrid");
  BOOST_TEST(changes.at("changedCount").as_int64() == 2);
  // The same comparison as text: the server computes it (GET .../diff), the CLI prints it.
  const ProcessResult text = run_process({krino_binary(), "dataset", "diff", "caps@1", "caps@latest"}, with_server);
  BOOST_REQUIRE_MESSAGE(text.exit_code == 0, text.err);
  BOOST_TEST(text.out.find("caps@1 -> caps@2: 0 added, 0 removed, 2 expected outputs changed\n") == 0, text.out);
  BOOST_TEST(text.out.find("~ es expected ") != std::string::npos, text.out);
  BOOST_TEST(text.out.find("-> {\"output\":\"Madrid\"}") != std::string::npos, text.out);

  // Run 2 on caps@latest (2): every item passes; gated against run 1, paired by dataset item id.
  const ProcessResult second = run_process({krino_binary(), "run", experiment_file("dataset://caps@latest")}, with_server);
  BOOST_REQUIRE_MESSAGE(second.exit_code == 0, second.err);
  const std::string second_run = run_id_from(second.err);
  const auto second_details = call_json(port, "GET", "/api/v1/runs/" + second_run, "", 200);
  BOOST_TEST(second_details.at("datasetVersion").as_string() == "caps@2");
  BOOST_TEST(second_details.at("passedItems").as_int64() == 6);
  const auto verdict = gate(experiment, second_run);
  BOOST_TEST(verdict.at("baselineRunId").as_string() == first_run);
  BOOST_TEST(verdict.at("pairing").as_string() == "dataset_item_id");
  BOOST_TEST(verdict.at("status").as_string() != "FAIL");
  BOOST_TEST(verdict.at("passed").as_bool());
  BOOST_TEST(verdict.at("candidatePassRate").as_double() == 1.0);

  // The versions read are cached for offline runs.
  BOOST_TEST(fs::exists(work.path("cache") + "/krino/datasets/caps@1/items.jsonl"));
  BOOST_TEST(fs::exists(work.path("cache") + "/krino/datasets/caps@2/items.jsonl"));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_dataset_loop)

BOOST_AUTO_TEST_CASE(push_run_gate_review_promote_run_gate_on_sqlite) {
  LoopWorkspace data;
  the_loop({"--data-dir", data.path("data")});
}

BOOST_AUTO_TEST_CASE(push_run_gate_review_promote_run_gate_on_postgresql) {
  static PostgresCluster cluster;
  the_loop({"--database", cluster.new_database()});
}

BOOST_AUTO_TEST_SUITE_END()
