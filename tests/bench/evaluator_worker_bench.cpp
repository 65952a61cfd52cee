// Evaluators in worker processes (issue 19): `krino run` on the agent workload (agent_cases.hpp)
// with one evaluator, run four ways, as cases per second and ratios:
//   in process         exact_match, a plugin called through the ABI (µs per case)
//   isolation          the same plugin under isolation: process (krino-plugin-host workers)
//   python worker      a trivial Python evaluator (score 1) through use: subprocess
//   node worker        the same in Node, when `node` is on PATH
// Workers: --workers (default 2, the cores of the reference machine).
//
//   krino_evaluator_worker_bench [--krino PATH] [--workdir DIR] [--items N] [--workers W]
//                                                                  (defaults: 100000 items, 2)
#include "agent_cases.hpp"
#include "bench_process.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace {

constexpr const char* kPythonTrivial = R"(import json, sys
out = sys.stdout
out.write(json.dumps({"protocol": "krino.evaluatorworker/1",
                      "evaluator": {"id": "bench.trivial_py", "name": "trivial"}}) + "\n")
out.flush()
for line in sys.stdin:
    message = json.loads(line)
    if "configure" in message:
        out.write('{"configured":true}\n')
    else:
        out.write('{"id":%d,"result":{"name":"trivial","score":1,"success":true}}\n' % message["id"])
    out.flush()
)";

constexpr const char* kNodeTrivial = R"(const readline = require('readline');
process.stdout.write(JSON.stringify({protocol: 'krino.evaluatorworker/1', evaluator: {id: 'bench.trivial_js', name: 'trivial'}}) + '\n');
readline.createInterface({input: process.stdin}).on('line', (line) => {
  const message = JSON.parse(line);
  process.stdout.write(message.configure !== undefined ? '{"configured":true}\n'
    : '{"id":' + message.id + ',"result":{"name":"trivial","score":1,"success":true}}\n');
});
)";

}  // namespace

int main(int argc, char** argv) {
  std::string krino = krino::bench::default_krino();
  fs::path workdir = fs::temp_directory_path() / "krino-bench";
  unsigned long long items = 100000;
  unsigned workers = 2;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--krino" && i + 1 < argc) krino = argv[++i];
    else if (a == "--workdir" && i + 1 < argc) workdir = argv[++i];
    else if (a == "--items" && i + 1 < argc) items = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--workers" && i + 1 < argc) workers = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
    else {
      std::fprintf(stderr, "usage: %s [--krino PATH] [--workdir DIR] [--items N] [--workers W]\n", argv[0]);
      return 2;
    }
  }
  if (items == 0 || workers == 0) {
    std::fprintf(stderr, "--items and --workers must be positive\n");
    return 2;
  }
  fs::create_directories(workdir);
  const fs::path data = workdir / ("agent-cases-" + std::to_string(items) + ".jsonl");
  if (!fs::exists(data)) krino::bench::generate_agent_cases(data, items);
  const fs::path python = workdir / "trivial_evaluator.py";
  std::ofstream(python) << kPythonTrivial;
  const fs::path node = workdir / "trivial_evaluator.js";
  std::ofstream(node) << kNodeTrivial;
  const bool have_node = std::system("node --version > /dev/null 2>&1") == 0;

  const std::string w = std::to_string(workers);
  struct Mode {
    const char* name;
    std::string evaluator;
  };
  const Mode modes[] = {
      {"in process", "exact_match"},
      {"isolation", "{use: exact_match, isolation: process, workers: " + w + "}"},
      {"python worker", "{use: subprocess, workers: " + w + ", command: [python3, '" + python.string() + "']}"},
      {"node worker", "{use: subprocess, workers: " + w + ", command: [node, '" + node.string() + "']}"},
  };
  std::printf("agent workload, %llu cases, one evaluator, %u workers\n", items, workers);
  std::printf("%-14s %10s %12s %10s %12s\n", "mode", "seconds", "cases/s", "peak RSS", "vs in process");
  double in_process_seconds = 0;
  for (const Mode& mode : modes) {
    if (std::string(mode.name) == "node worker" && !have_node) continue;
    const fs::path experiment = workdir / "evaluator-worker-bench.yaml";
    std::ofstream(experiment) << "name: evaluator-worker-bench\ndataset: " << data.string()
                              << "\ntask: replay\nevaluators: [" << mode.evaluator
                              << "]\nreporters: []\nmin_pass_rate: 0\nparallelism: " << workers << "\n";
    auto r = krino::bench::run_measured({krino, "run", experiment.string()});
    if (r.exit_code != 0) {
      std::fprintf(stderr, "krino run (%s) failed with exit code %d; run it by hand: %s run %s\n", mode.name,
                   r.exit_code, krino.c_str(), experiment.string().c_str());
      return 1;
    }
    if (in_process_seconds == 0) in_process_seconds = r.seconds;
    std::printf("%-14s %10.2f %12.0f %7.1f MB %11.2fx\n", mode.name, r.seconds, static_cast<double>(items) / r.seconds,
                r.peak_rss_mb, r.seconds / in_process_seconds);
    std::fflush(stdout);
  }
  return 0;
}
