// The exec task's benchmark: the same examples through a trivial echo program, a process per
// example against persistent workers, at the same parallelism. Prints items/s for both and the
// ratio (workers / per example).
//
//   krino_exec_bench [--krino PATH] [--workdir DIR] [--items N] [--parallelism P] [--program native|python]
//                                               (defaults: 10000 items, parallelism 8, native)
//
// `native` is krino_exec_echo (built next to this benchmark): the figure is krino's own cost of
// starting a process, moving the example through pipes and reading the reply. `python` is the same
// echo in python3, whose interpreter start-up (tens of milliseconds) dominates a process per example,
// as it does for most real agents.
#include "bench_process.hpp"
#include "test_paths.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

constexpr const char* kPythonEcho = R"(import json, sys
if len(sys.argv) > 1:
    for line in sys.stdin:
        request = json.loads(line)
        print(json.dumps({"id": request["id"], "actualOutputs": request["example"]["inputs"]}), flush=True)
else:
    print(json.dumps(json.load(sys.stdin)["inputs"]))
)";

void generate(const fs::path& file, unsigned long long items) {
  std::ofstream out(file, std::ios::binary);
  for (unsigned long long i = 0; i < items; ++i) {
    const std::string text = "answer number " + std::to_string(i) + " of the exec benchmark, a sentence of ordinary length";
    out << "{\"id\":\"case-" << i << "\",\"inputs\":{\"output\":\"" << text << "\"},\"expectedOutputs\":{\"output\":\""
        << text << "\"},\"metadata\":{\"batch\":" << i / 1000 << "}}\n";
  }
}

std::string yaml_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i > 0 ? ", '" : "'") + items[i] + "'";
  return out + "]";
}

}  // namespace

int main(int argc, char** argv) {
  std::string krino = krino::bench::default_krino();
  fs::path workdir = fs::temp_directory_path() / "krino-bench";
  unsigned long long items = 10000;
  unsigned parallelism = 8;
  std::string program = "native";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--krino" && i + 1 < argc) krino = argv[++i];
    else if (a == "--workdir" && i + 1 < argc) workdir = argv[++i];
    else if (a == "--items" && i + 1 < argc) items = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--parallelism" && i + 1 < argc) parallelism = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
    else if (a == "--program" && i + 1 < argc) program = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--krino PATH] [--workdir DIR] [--items N] [--parallelism P] [--program native|python]\n",
                   argv[0]);
      return 2;
    }
  }
  if (items == 0 || parallelism == 0 || (program != "native" && program != "python")) {
    std::fprintf(stderr, "--items and --parallelism must be positive; --program is native or python\n");
    return 2;
  }
  fs::create_directories(workdir);
  const fs::path data = workdir / ("exec-" + std::to_string(items) + ".jsonl");
  if (!fs::exists(data)) generate(data, items);

  std::vector<std::string> per_example, worker;
  if (program == "native") {
    const std::string echo = std::string(KRINO_BINARY_DIR) + "/bin/krino_exec_echo";
    per_example = {echo};
    worker = {echo, "--worker"};
  } else {
    const fs::path script = workdir / "exec_echo.py";
    std::ofstream(script) << kPythonEcho;
    per_example = {"python3", script.string()};
    worker = {"python3", script.string(), "--worker"};
  }

  std::printf("exec task, %llu items, parallelism %u, %s echo program\n", items, parallelism, program.c_str());
  std::printf("%-12s %10s %12s %10s\n", "mode", "seconds", "items/s", "peak RSS");
  double rates[2] = {0, 0};
  const char* modes[2] = {"per_example", "worker"};
  for (int m = 0; m < 2; ++m) {
    const fs::path experiment = workdir / (std::string("exec-") + modes[m] + ".yaml");
    std::ofstream(experiment) << "name: exec-bench\ndataset: " << data.string() << "\ntask:\n  kind: exec\n  mode: "
                              << modes[m] << "\n  command: " << yaml_list(m == 0 ? per_example : worker)
                              << "\nevaluators: [exact_match]\nreporters: []\nparallelism: " << parallelism << "\n";
    auto r = krino::bench::run_measured({krino, "run", experiment.string()});
    if (r.exit_code != 0) {
      std::fprintf(stderr, "krino run (%s) failed with exit code %d; run it by hand: %s run %s\n", modes[m], r.exit_code,
                   krino.c_str(), experiment.string().c_str());
      return 1;
    }
    rates[m] = static_cast<double>(items) / r.seconds;
    std::printf("%-12s %10.2f %12.0f %7.1f MB\n", modes[m], r.seconds, rates[m], r.peak_rss_mb);
    std::fflush(stdout);
  }
  std::printf("workers / per example: %.1fx\n", rates[1] / rates[0]);
  return 0;
}
