// The server reporter and `krino upload` against a real `krino serve` (SQLite): a run's items on the
// server equal its json report; a server killed (SIGKILL) mid-run and started again loses nothing
// once the spool is uploaded, and stores no item twice; a server down for the whole run leaves a
// local run in the spool and a failing exit, unless allow_loss.
#include "process.hpp"
#include "serve_process.hpp"
#include "test_http_client.hpp"

#include <boost/test/unit_test.hpp>

#include <krino/json_parse.hpp>

#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

using namespace krino::test;
using krino::fake_llm::test::HttpCall;
using krino::fake_llm::test::TestHttpClient;
namespace fs = std::filesystem;

namespace {

// The options of a `krino serve` that keeps its SQLite file in `data_dir`.
std::vector<std::string> on_data_dir(const std::string& data_dir) { return {"--data-dir", data_dir}; }

boost::json::value get_json(unsigned short port, const std::string& target) {
  TestHttpClient client(port);
  HttpCall call;
  call.method = "GET";
  call.target = target;
  const auto result = client.send(call);
  BOOST_REQUIRE_MESSAGE(result.status() == 200u, target + ": " + result.body());
  return krino::json::parse(result.body());
}

// Every item of a run on the server, by its dataset id: the scores of its results, in order.
struct ServerRun {
  boost::json::object details;
  std::map<std::string, std::vector<std::string>> scores;
  std::size_t items_seen = 0;
};

ServerRun read_run(unsigned short port, const std::string& run_id) {
  ServerRun run;
  for (int page = 0;; ++page) {
    const boost::json::value answer = get_json(port, "/api/v1/runs/" + run_id + "?page=" + std::to_string(page) + "&size=1000");
    run.details = answer.as_object();
    const auto& items = answer.at("items").at("content").as_array();
    for (const auto& item : items) {
      ++run.items_seen;
      std::vector<std::string> scores;
      for (const auto& result : item.at("evalResults").as_array())
        scores.push_back(boost::json::serialize(result.at("score")));
      run.scores[std::string(item.at("itemId").as_string())] = scores;
    }
    if (answer.at("items").at("last").as_bool()) break;
  }
  return run;
}

// The json report's items: dataset id -> the scores of its results; and how many passed.
std::map<std::string, std::vector<std::string>> report_scores(const std::string& path, std::size_t& passed) {
  std::map<std::string, std::vector<std::string>> scores;
  std::ifstream in(path);
  std::string line;
  passed = 0;
  while (std::getline(in, line)) {
    const boost::json::value event = krino::json::parse(line);
    if (event.at("event").as_string() != "item_finished") continue;
    if (event.at("success").as_bool() && event.at("error").is_null()) ++passed;
    std::vector<std::string> item;
    for (const auto& result : event.at("results").as_array()) item.push_back(boost::json::serialize(result.at("score")));
    scores[std::string(event.at("id").as_string())] = item;
  }
  return scores;
}

std::string run_id_in(const std::string& err) {
  const std::string marker = "server reporter: run ";
  const auto at = err.find(marker);
  BOOST_REQUIRE_MESSAGE(at != std::string::npos, err);
  const auto start = at + marker.size();
  return err.substr(start, err.find(':', start) - start);
}

struct Workspace {
  fs::path dir;
  explicit Workspace(std::size_t items) {
    std::string pattern = (fs::temp_directory_path() / "krino-server-e2e-XXXXXX").string();
    BOOST_REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    dir = pattern;
    std::ofstream out(dir / "data.jsonl");
    for (std::size_t i = 0; i < items; ++i)
      out << "{\"id\":\"q" << i << "\",\"input\":\"question " << i << " \\u00e9\",\"expectedOutput\":\"a" << i % 7
          << "\",\"actualOutput\":\"a" << i % 5 << "\"}\n";
  }
  ~Workspace() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string path(const std::string& name) const { return (dir / name).string(); }
  std::string experiment(const std::string& server_options) const {
    const std::string file = path("exp.yaml");
    write_file(file, "name: e2e\ndataset: " + path("data.jsonl") +
                         "\nevaluators: [exact_match, {exact_match: {name: loose, ignore_case: true, threshold: 0.5}}]\nmin_pass_rate: 0\nreporters:\n  - json: {path: " +
                         path("report.jsonl") + "}\n  - server: {" + server_options + "}\n");
    return file;
  }
};

uint64_t size_of(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 ? static_cast<uint64_t>(info.st_size) : 0;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_server_reporter)

BOOST_AUTO_TEST_CASE(the_servers_run_equals_the_json_report) {
  Workspace work(1234);
  const unsigned short port = unused_port();
  ServeProcess server(port, on_data_dir(work.path("data")));
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/";
  const ProcessResult run = run_process({krino_binary(), "run", work.experiment("url: \"" + url + "\", project: e2e, batch_size: 50")});
  BOOST_REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  std::size_t passed = 0;
  const auto expected = report_scores(work.path("report.jsonl"), passed);
  const ServerRun stored = read_run(port, run_id_in(run.err));
  BOOST_TEST(stored.items_seen == 1234u);
  BOOST_TEST(stored.details.at("totalItems").as_int64() == 1234);
  BOOST_TEST(stored.details.at("passedItems").as_int64() == static_cast<int64_t>(passed));
  BOOST_TEST(stored.details.at("status").as_string() == "SUCCESS");
  BOOST_TEST(stored.details.at("experimentName").as_string() == "e2e");
  BOOST_TEST((stored.scores == expected));
}

BOOST_AUTO_TEST_CASE(a_server_killed_mid_run_loses_nothing_once_the_spool_is_uploaded) {
  Workspace work(8000);
  const unsigned short port = unused_port();
  std::optional<ServeProcess> server(std::in_place, port, on_data_dir(work.path("data")));
  const std::string url = "http://127.0.0.1:" + std::to_string(port);
  const std::string spool = work.path("spool.ndjson");
  const std::string experiment =
      work.experiment("url: \"" + url + "\", project: e2e, batch_size: 10, retries: 1, spool: \"" + spool + "\"");
  // The report grows as the run goes: the server is killed a quarter of the way in.
  ProcessOptions options;
  bool killed = false;
  const std::string report = work.path("report.jsonl");
  options.interrupt_when = [&] {
    if (!killed && size_of(report) > 8000u * 300u / 4u) {
      server->stop(SIGKILL);
      killed = true;
    }
    return false;  // the run itself goes on
  };
  const ProcessResult run = run_process({krino_binary(), "run", experiment}, options);
  BOOST_REQUIRE(killed);
  BOOST_TEST(run.exit_code == 3, run.err);
  BOOST_TEST(run.err.find("send them with krino upload") != std::string::npos, run.err);
  BOOST_REQUIRE(fs::exists(spool));

  server.emplace(port, on_data_dir(work.path("data")));  // the same data directory
  const ProcessResult upload = run_process({krino_binary(), "upload", spool});
  BOOST_TEST(upload.exit_code == 0, upload.err);
  BOOST_TEST(!fs::exists(spool));
  BOOST_TEST(fs::exists(spool + ".uploaded"));
  // Uploading the renamed file again stores nothing twice: every batch keeps its key.
  BOOST_TEST(run_process({krino_binary(), "upload", spool + ".uploaded"}).exit_code == 0);

  std::size_t passed = 0;
  const auto expected = report_scores(report, passed);
  const ServerRun stored = read_run(port, run_id_in(run.err));
  BOOST_TEST(stored.items_seen == 8000u);  // each once
  BOOST_TEST(stored.details.at("totalItems").as_int64() == 8000);
  BOOST_TEST(stored.details.at("passedItems").as_int64() == static_cast<int64_t>(passed));
  BOOST_TEST(stored.details.at("status").as_string() == "SUCCESS");
  BOOST_TEST((stored.scores == expected));
}

BOOST_AUTO_TEST_CASE(a_server_down_for_the_whole_run_leaves_a_local_run_in_the_spool_and_fails_unless_allow_loss) {
  Workspace work(30);
  const unsigned short port = unused_port();
  const std::string url = "http://127.0.0.1:" + std::to_string(port);
  const std::string spool = work.path("spool.ndjson");
  const ProcessResult down = run_process({krino_binary(), "run", work.experiment("url: \"" + url + "\", project: e2e, spool: \"" + spool + "\"")});
  BOOST_TEST(down.exit_code == 3, down.err);
  BOOST_TEST(down.err.find("this run is local-") != std::string::npos, down.err);
  BOOST_TEST(read_file(spool).find("\"runId\":\"local-") != std::string::npos);
  fs::remove(spool);
  const ProcessResult allowed =
      run_process({krino_binary(), "run", work.experiment("url: \"" + url + "\", project: e2e, allow_loss: true, spool: \"" + spool + "\"")});
  BOOST_TEST(allowed.exit_code == 0, allowed.err);
  BOOST_TEST(fs::exists(spool));

  // The server comes back: the spool creates the run, and a json report can be sent as well.
  ServeProcess server(port, on_data_dir(work.path("data")));
  const ProcessResult replay = run_process({krino_binary(), "upload", spool});
  BOOST_TEST(replay.exit_code == 0, replay.err);
  const ProcessResult report = run_process({krino_binary(), "upload", work.path("report.jsonl"), "--server", url, "--project", "e2e",
                                            "--experiment", "from-report"});
  BOOST_TEST(report.exit_code == 0, report.err);
  BOOST_TEST(read_run(port, run_id_in(report.err)).items_seen == 30u);
  BOOST_TEST(fs::exists(work.path("report.jsonl")));  // the user's file is only read
}

BOOST_AUTO_TEST_SUITE_END()
