// Items ingested per second by `krino serve` through its HTTP API, on SQLite (a file in a temporary
// directory) or on PostgreSQL (a throwaway cluster, --postgres): the server runs as its own process
// on loopback; C client threads post batches of B items of about 1 KB, as the `server` reporter
// will; the figure is items / wall time from the first batch to the last answer. The server's peak
// RSS comes from wait4 after SIGTERM.
//   krino_server_ingest_bench [--items N] [--batch B] [--clients C] [--postgres] [--krino PATH] [--reporter]
// With --reporter the items come from `krino run` itself: a dataset of N items of about 1 KB, two
// evaluators, and the `server` reporter (batch_size B) as its only reporter; the figure is N / the
// run's wall time, beside the same run with no reporter at all (what the server costs a run).
#include "bench_server.hpp"
#include "postgres_cluster.hpp"
#include "test_http_client.hpp"


#include <atomic>
#include <fstream>
#include <csignal>
#include <signal.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

using krino::fake_llm::test::HttpCall;
using krino::fake_llm::test::TestHttpClient;

// One item of about 1 KB: inputs, outputs, two results, metrics.
std::string item_json(std::size_t n) {
  std::string padding(700, 'x');
  return R"({"inputs":{"question":"What is the capital of country )" + std::to_string(n) + R"(?","context":")" + padding +
         R"("},"expectedOutputs":{"output":"Paris"},"actualOutputs":{"output":"Paris, France"},"success":true,)"
         R"("datasetItemId":"item-)" + std::to_string(n) + R"(","tokensIn":182,"tokensOut":9,"costUsd":0.000191,"latencyMs":412.5,)"
         R"("evalResults":[{"name":"contains","score":1.0,"threshold":1.0,"success":true,"reason":"found"},)"
         R"({"name":"judge","score":0.8125,"threshold":0.5,"success":true,"reason":"close enough"}]})";
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t items = 200000;
  std::size_t batch = 500;
  int clients = 2;
  bool postgres = false;
  bool reporter = false;
  std::string krino = krino::bench::default_krino();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--items" && i + 1 < argc) items = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--batch" && i + 1 < argc) batch = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--clients" && i + 1 < argc) clients = std::atoi(argv[++i]);
    else if (a == "--postgres") postgres = true;
    else if (a == "--reporter") reporter = true;
    else if (a == "--krino" && i + 1 < argc) krino = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--items N] [--batch B] [--clients C] [--postgres] [--krino PATH] [--reporter]\n", argv[0]);
      return 2;
    }
  }
  if (batch == 0 || clients <= 0) return 2;

  const krino::bench::BenchStorage storage = krino::bench::bench_storage(postgres, "krino-ingest-bench");
  const std::string& data_dir = storage.data_dir;
  std::optional<krino::bench::BenchServer> server;
  if (!krino::bench::start_bench_server(server, krino, storage.flags)) return 3;
  const unsigned short port = server->port();
  std::optional<TestHttpClient> probe(std::in_place, port);

  if (reporter) {
    std::filesystem::create_directories(data_dir);
    const std::string dataset = data_dir + "/data.jsonl";
    {
      std::ofstream out(dataset);
      const std::string padding(700, 'x');
      for (std::size_t n = 0; n < items; ++n)
        out << R"({"id":"item-)" << n << R"(","input":"What is the capital of country )" << n << "? " << padding
            << R"(","expectedOutput":"Paris","actualOutput":"Paris, France"})" << '\n';
    }
    auto experiment = [&](const std::string& name, const std::string& reporters) {
      const std::string file = data_dir + "/" + name + ".yaml";
      std::ofstream(file) << "name: " << name << "\ndataset: " << dataset
                          << "\nevaluators: [exact_match, {exact_match: {name: loose, ignore_case: true}}]\nmin_pass_rate: 0\nreporters: " << reporters << "\n";
      return file;
    };
    const std::string url = server->url();
    const std::string with_server = experiment(
        "reporter", "[{server: {url: \"" + url + "\", project: bench, batch_size: " + std::to_string(batch) + ", spool: \"\"}}]");
    const std::string alone = experiment("alone", "[]");
    const krino::bench::Measured bare = krino::bench::run_measured({krino, "run", alone});
    const krino::bench::Measured sent = krino::bench::run_measured({krino, "run", with_server});
    probe.reset();
    const krino::bench::Measured served = server->stop();
    std::filesystem::remove_all(data_dir);
    std::printf("backend     items   batch   krino run alone   with server reporter    items/s   run peak RSS   server peak RSS\n");
    std::printf("%-10s %6zu %7zu %15.2f s %19.2f s %10.0f %11.1f MB %14.1f MB\n", postgres ? "postgresql" : "sqlite", items, batch,
                bare.seconds, sent.seconds, static_cast<double>(items) / sent.seconds, sent.peak_rss_mb, served.peak_rss_mb);
    return bare.exit_code == 0 && sent.exit_code == 0 ? 0 : 1;
  }

  HttpCall create;
  create.target = "/api/v1/projects/bench/runs";
  create.body = R"({"experimentName":"ingest"})";
  const std::string created = probe->send(create).body();
  const std::string run_id = created.substr(created.find("\"runId\":\"") + 9, 36);

  const std::size_t batches = (items + batch - 1) / batch;
  std::atomic<std::size_t> next_batch{0};
  std::atomic<std::size_t> failures{0};
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::thread> workers;
  for (int c = 0; c < clients; ++c) {
    workers.emplace_back([&] {
      TestHttpClient client(port);
      for (std::size_t b = next_batch++; b < batches; b = next_batch++) {
        HttpCall call;
        call.target = "/api/v1/runs/" + run_id + "/items";
        call.headers = {{"Idempotency-Key", "batch-" + std::to_string(b)}};
        call.deadline = std::chrono::milliseconds(60000);
        call.body = "{\"items\":[";
        const std::size_t first = b * batch;
        const std::size_t last = std::min(items, first + batch);
        for (std::size_t n = first; n < last; ++n) {
          if (n > first) call.body += ',';
          call.body += item_json(n);
        }
        call.body += "]}";
        if (client.send(call).status() != 201u) ++failures;
      }
    });
  }
  for (auto& worker : workers) worker.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  HttpCall finish;
  finish.method = "PATCH";
  finish.target = "/api/v1/runs/" + run_id;
  finish.body = R"({"status":"SUCCESS"})";
  probe->send(finish);
  probe.reset();
  const krino::bench::Measured served = server->stop();  // a graceful stop, then wait4 tells its peak RSS
  std::filesystem::remove_all(data_dir);

  std::printf("backend     items   batch  clients   seconds    items/s   server peak RSS   failed batches\n");
  std::printf("%-10s %6zu %7zu %8d %9.2f %10.0f %14.1f MB %16zu\n", postgres ? "postgresql" : "sqlite", items, batch, clients, seconds,
              static_cast<double>(items) / seconds, served.peak_rss_mb, failures.load());
  return failures == 0 ? 0 : 1;
}
