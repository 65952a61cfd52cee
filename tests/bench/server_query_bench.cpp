// How fast `krino serve` answers the pages a person reads on a large run: the run details' item
// pages and the diff's case pages of two runs of N items (1,000,000 by default), on SQLite or a
// throwaway PostgreSQL cluster (--postgres). The two runs are written into the database through the
// Store first (the ingest bench measures ingestion); then the server runs as its own process and
// this program times requests on loopback: the first diff (which computes the comparison), then
// R random pages of each kind, reporting p50, p95 and max. The server's peak RSS comes from wait4.
//   krino_server_query_bench [--items N] [--requests R] [--postgres] [--krino PATH]
#include "bench_server.hpp"
#include "postgres_cluster.hpp"
#include "test_http_client.hpp"

#include "krino/core/store/postgres_store.hpp"
#include "krino/core/store/sqlite_store.hpp"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <signal.h>
#include <string>
#include <thread>
#include <vector>

namespace {

using krino::fake_llm::test::HttpCall;
using krino::fake_llm::test::TestHttpClient;
using namespace krino::core::store;

// Item n of a run: about 300 bytes, two verdicts. The candidate fails one item in 25 that passed;
// one item in 10,000 carries an item error (a rare match for the ERROR filter).
NewItem make_item(std::size_t n, bool candidate) {
  const bool regressed = candidate && n % 25 == 0;
  const bool errored = n % 10000 == 7;
  const double judge = regressed ? 0.25 : 0.8125;
  NewItem item;
  item.dataset_item_id = "item-" + std::to_string(n);
  item.success = !regressed;
  item.document = R"({"inputs":{"question":"What is the capital of country )" + std::to_string(n) +
                  R"(?"},"expectedOutputs":{"output":"Paris"},"actualOutputs":{"output":"Paris, France"},"success":)" +
                  (regressed ? "false" : "true") + R"(,"datasetItemId":"item-)" + std::to_string(n) + R"(","evalResults":[)" +
                  R"({"name":"contains","score":1.0,"success":true},{"name":"judge","score":)" + std::to_string(judge) +
                  R"(,"threshold":0.5,"success":)" + (regressed ? "false" : "true") + "}]" +
                  (errored ? R"(,"error":{"stage":"task","component":"http","code":"timeout","message":"no answer"}})" : "}");
  item.has_error = errored;
  item.results.push_back(NewResult{"contains", 1.0, std::nullopt, true});
  item.results.push_back(NewResult{"judge", judge, 0.5, !regressed});
  return item;
}

struct Filled {
  std::string experiment_id, baseline_run, candidate_run;
};

Filled fill(Store& store, std::size_t items) {
  Filled filled;
  for (bool candidate : {false, true}) {
    NewRun run{"bench", "query"};
    run.dataset_version = "v1";
    const CreatedRun created = store.create_run(Scope{}, run);
    filled.experiment_id = created.experiment_id;
    (candidate ? filled.candidate_run : filled.baseline_run) = created.run_id;
    constexpr std::size_t kBatch = 5000;
    for (std::size_t first = 0; first < items; first += kBatch) {
      std::vector<NewItem> batch;
      for (std::size_t n = first; n < std::min(items, first + kBatch); ++n) batch.push_back(make_item(n, candidate));
      store.add_items(Scope{}, created.run_id, std::nullopt, batch);
    }
    store.set_run_status(Scope{}, created.run_id, RunStatus::success);
  }
  return filled;
}

struct Timings {
  std::vector<double> ms;
  std::size_t failures = 0;
  double at(double q) {
    if (ms.empty()) return 0;
    std::sort(ms.begin(), ms.end());
    return ms[std::min(ms.size() - 1, static_cast<std::size_t>(q * static_cast<double>(ms.size())))];
  }
};

double timed(TestHttpClient& client, const std::string& target, Timings& into, const std::string& method = "GET", const std::string& body = "") {
  HttpCall call;
  call.method = method;
  call.target = target;
  call.body = body;
  call.deadline = std::chrono::minutes(10);
  const auto started = std::chrono::steady_clock::now();
  const auto status = client.send(call).status();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  if (status != 200u) ++into.failures;
  into.ms.push_back(ms);
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t items = 1000000;
  std::size_t requests = 200;
  bool postgres = false;
  std::string krino = krino::bench::default_krino();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--items" && i + 1 < argc) items = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--requests" && i + 1 < argc) requests = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--postgres") postgres = true;
    else if (a == "--krino" && i + 1 < argc) krino = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--items N] [--requests R] [--postgres] [--krino PATH]\n", argv[0]);
      return 2;
    }
  }
  if (items < 50 || requests == 0) return 2;

  std::unique_ptr<krino::test::PostgresCluster> cluster;
  std::vector<std::string> storage;
  const std::filesystem::path data_dir = std::filesystem::temp_directory_path() / ("krino-query-bench-" + std::to_string(::getpid()));
  Filled filled;
  const auto fill_started = std::chrono::steady_clock::now();
  if (postgres) {
    cluster = std::make_unique<krino::test::PostgresCluster>();
    const std::string database = cluster->new_database();
    PostgresStore store(database);
    filled = fill(store, items);
    storage = {"--database", database};
  } else {
    std::filesystem::create_directories(data_dir);
    SqliteStore store(data_dir / "krino.db");
    filled = fill(store, items);
    storage = {"--data-dir", data_dir.string()};
  }
  const double fill_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - fill_started).count();

  std::optional<krino::bench::BenchServer> server;
  if (!krino::bench::start_bench_server(server, krino, storage)) return 3;
  std::optional<TestHttpClient> client(std::in_place, server->port());

  std::mt19937_64 random(42);
  const std::size_t pages = items / 50;
  Timings details, first_diff, diff_all, diff_regressed, gate;
  // The run page of the web UI: the first page of each filter (a fresh request each, in turn).
  struct Filter {
    const char* name;
    std::string query;
    Timings timings;
  };
  std::vector<Filter> filters = {
      {"items ALL", "status=ALL", {}},
      {"items PASSED", "status=PASSED", {}},
      {"items FAILED (1 in 25)", "status=FAILED", {}},
      {"items ERROR (1 in 10,000)", "status=ERROR", {}},
      {"items judge FAILED", "evaluator=judge&evaluatorStatus=FAILED", {}},
      {"items judge PASSED", "evaluator=judge&evaluatorStatus=PASSED", {}},
      {"items evaluator=contains", "evaluator=contains", {}},
      {"items q=Paris (every item)", "q=Paris", {}},
      {"items q=rare (one item)", "q=country+" + std::to_string(items * 3 / 4) + "%3F", {}},
      {"items q=absent", "q=zebra", {}},
      {"items FAILED+judge FAILED+q", "status=FAILED&evaluator=judge&evaluatorStatus=FAILED&q=capital", {}},
  };
  const std::string run_items = "/api/v1/runs/" + filled.candidate_run + "/items?size=50&";
  for (std::size_t r = 0; r < std::max<std::size_t>(1, requests / 20); ++r)
    for (Filter& filter : filters) timed(*client, run_items + filter.query, filter.timings);
  // A rare text match followed to the end of the run, nextAfter after nextAfter.
  std::size_t rare_requests = 0;
  const auto rare_started = std::chrono::steady_clock::now();
  for (std::string after; rare_requests < 10000;) {
    HttpCall call;
    call.method = "GET";
    call.target = run_items + filters[8].query + after;
    call.deadline = std::chrono::minutes(10);
    const std::string body = client->send(call).body();
    ++rare_requests;
    const std::size_t at = body.find("\"nextAfter\":");
    if (at == std::string::npos || body.compare(at + 12, 4, "null") == 0) break;
    after = "&after=" + body.substr(at + 12, body.find_first_of(",}", at + 12) - at - 12);
  }
  const double rare_walk_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - rare_started).count();
  Timings first_evaluators, evaluators, trends, gates;
  timed(*client, "/api/v1/runs/" + filled.candidate_run + "/evaluators", first_evaluators);
  for (std::size_t r = 0; r < requests; ++r) timed(*client, "/api/v1/runs/" + filled.candidate_run + "/evaluators", evaluators);
  for (std::size_t r = 0; r < requests; ++r)
    timed(*client, "/api/v1/runs/" + filled.candidate_run + "?size=50&page=" + std::to_string(random() % pages), details);
  const std::string diff = "/api/v1/experiments/" + filled.experiment_id + "/runs/" + filled.candidate_run + "/diff?baselineRunId=" + filled.baseline_run;
  timed(*client, diff, first_diff);
  for (std::size_t r = 0; r < requests; ++r) timed(*client, diff + "&size=50&page=" + std::to_string(random() % pages), diff_all);
  for (std::size_t r = 0; r < requests; ++r)
    timed(*client, diff + "&status=REGRESSED&size=50&page=" + std::to_string(random() % (pages / 25 + 1)), diff_regressed);
  timed(*client, "/api/v1/experiments/" + filled.experiment_id + "/gate", gate, "POST", R"({"candidateRunId":")" + filled.candidate_run + "\"}");
  for (std::size_t r = 0; r < requests; ++r) timed(*client, "/api/v1/experiments/" + filled.experiment_id + "/trends", trends);
  for (std::size_t r = 0; r < requests; ++r) timed(*client, "/api/v1/gates?status=FAIL&limit=20", gates);
  client.reset();
  const krino::bench::Measured served = server->stop();
  std::filesystem::remove_all(data_dir);

  std::size_t failures = details.failures + first_diff.failures + diff_all.failures + diff_regressed.failures + gate.failures +
                         first_evaluators.failures + evaluators.failures + trends.failures + gates.failures;
  for (const Filter& filter : filters) failures += filter.timings.failures;
  std::printf("backend %s, two runs of %zu items written in %.1f s; %zu requests of each page kind; server peak RSS %.1f MB; %zu failed\n",
              postgres ? "postgresql" : "sqlite", items, fill_seconds, requests, served.peak_rss_mb, failures);
  std::printf("%-34s %10s %10s %10s\n", "request", "p50 ms", "p95 ms", "max ms");
  auto row = [](const char* name, Timings& t) { std::printf("%-34s %10.2f %10.2f %10.2f\n", name, t.at(0.5), t.at(0.95), t.at(1.0)); };
  row("run details page (size 50)", details);
  row("first diff (computes the comparison)", first_diff);
  row("diff page, ALL (size 50)", diff_all);
  row("diff page, REGRESSED (size 50)", diff_regressed);
  row("gate (comparison kept)", gate);
  for (Filter& filter : filters) row(filter.name, filter.timings);
  row("first evaluators (sums the run)", first_evaluators);
  row("evaluators (kept)", evaluators);
  row("trends (2 runs)", trends);
  row("gates ?status=FAIL", gates);
  std::printf("rare text match walked to the run's end: %zu requests, %.0f ms in all\n", rare_requests, rare_walk_ms);
  return failures == 0 ? 0 : 1;
}
