// The `http` task against a stand-in service: the fake server's /app/ endpoint, on its own thread in
// this process (so it shares the machine's cores with krino, and the figures include the cost of
// answering every request). Two workloads:
//   1. throughput: no added latency; items/s of `krino run` from file to summary [>= 20,000 items/s];
//   2. concurrency: a fixed latency per request and `parallelism` requests in flight; wall time
//      against the ideal items x latency / parallelism [within 1.1x].
//
//   krino_http_task_bench [--krino PATH] [--items N] [--parallelism N]
//                         [--latency-items N] [--latency-ms MS] [--latency-parallelism N]
#include "bench_process.hpp"

#include "fake_llm_server.hpp"
#include "script.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/resource.h>

namespace fs = std::filesystem;

namespace {

struct Workload {
  int items = 0;
  int parallelism = 0;
  unsigned latency_ms = 0;
};

krino::bench::Measured run_workload(const std::string& krino, const Workload& w, const fs::path& dir) {
  krino::fake_llm::ServerOptions options;
  options.latency_ms = w.latency_ms;
  options.threads = 1;
  options.keep_last_requests = 0;
  krino::fake_llm::FakeLlmServer server(std::move(options));

  {
    std::ofstream data(dir / "cases.jsonl");
    for (int i = 0; i < w.items; ++i)
      data << R"({"id":"c)" << i << R"(","inputs":{"input":"question )" << i
           << R"("},"expectedOutputs":{"output":"question )" << i << R"("},"metadata":{}})" << '\n';
  }
  // The service echoes the request; the answer is the question itself, so every item passes.
  std::ofstream(dir / "http.yaml") << "name: http-bench\ndataset: cases.jsonl\n"
                                   << "task:\n  kind: http\n  url: " << server.base_url() << "/app/answer\n"
                                   << "  body: {output: '{{inputs.input}}'}\n  response: {path: /echo}\n"
                                   << "  timeout_ms: 60000\n"
                                   << "parallelism: " << w.parallelism << "\nevaluators: [exact_match]\n"
                                   << "reporters: [console]\n";
  return krino::bench::run_measured({krino, "run", (dir / "http.yaml").string()});
}

}  // namespace

int main(int argc, char** argv) {
  std::string krino = krino::bench::default_krino();
  Workload throughput{200000, 64, 0};
  Workload latency{50000, 1000, 50};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&] { return std::atoi(argv[++i]); };
    if (a == "--krino" && i + 1 < argc) krino = argv[++i];
    else if (a == "--items" && i + 1 < argc) throughput.items = next();
    else if (a == "--parallelism" && i + 1 < argc) throughput.parallelism = next();
    else if (a == "--latency-items" && i + 1 < argc) latency.items = next();
    else if (a == "--latency-ms" && i + 1 < argc) latency.latency_ms = static_cast<unsigned>(next());
    else if (a == "--latency-parallelism" && i + 1 < argc) latency.parallelism = next();
    else {
      std::fprintf(stderr,
                   "usage: %s [--krino PATH] [--items N] [--parallelism N] [--latency-items N] [--latency-ms MS] "
                   "[--latency-parallelism N]\n",
                   argv[0]);
      return 2;
    }
  }
  // A thousand connections need a thousand descriptors on each side (this process serves them).
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
  }
  const fs::path dir = fs::temp_directory_path() / "krino-http-bench";
  fs::create_directories(dir);

  const auto fast = run_workload(krino, throughput, dir);
  if (fast.exit_code != 0) {
    std::fprintf(stderr, "krino run (throughput) failed with exit code %d\n", fast.exit_code);
    return 1;
  }
  std::printf("%-12s %-9s %-12s %10s %12s %10s\n", "workload", "items", "parallelism", "wall s", "items/s", "peak RSS");
  std::printf("%-12s %-9d %-12d %10.2f %12.0f %7.1f MB\n", "no latency", throughput.items, throughput.parallelism,
              fast.seconds, throughput.items / fast.seconds, fast.peak_rss_mb);

  const auto slow = run_workload(krino, latency, dir);
  if (slow.exit_code != 0) {
    std::fprintf(stderr, "krino run (latency) failed with exit code %d\n", slow.exit_code);
    return 1;
  }
  const double ideal = static_cast<double>(latency.items) * latency.latency_ms / 1000.0 / latency.parallelism;
  std::printf("%-12s %-9d %-12d %10.2f %12.0f %7.1f MB   %u ms each: ideal %.2f s, ratio %.3f\n", "latency",
              latency.items, latency.parallelism, slow.seconds, latency.items / slow.seconds, slow.peak_rss_mb,
              latency.latency_ms, ideal, slow.seconds / ideal);
  fs::remove_all(dir);
  return 0;
}
