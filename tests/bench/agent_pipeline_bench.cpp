// Agent workload: cases per second and peak RSS of `krino run` on realistic agent test cases,
// file to summary, scored by exact_match, structural_match, tool_trajectory (in_order) and
// tool_call_validity together.
//
//   krino_agent_pipeline_bench [--krino PATH] [--workdir DIR] [--items N]... [--evaluators A,B]
//
// --items defaults to 1000000. --evaluators scores with those evaluators instead of the four (names
// as an experiment file spells them, without settings): `--evaluators exact_match` measures the
// pipeline around one cheap evaluator, the floor under the four.
//
// The cases are agent_cases.hpp's (about 4.7 KB each). Files are generated once and reused.
#include "agent_cases.hpp"
#include "bench_process.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace fs = std::filesystem;

namespace {

// "a,b" as an experiment file's evaluator list.
std::string evaluator_list(std::string_view names) {
  std::string list = "evaluators:\n";
  while (!names.empty()) {
    const size_t comma = names.find(',');
    const std::string_view name = names.substr(0, comma);
    if (!name.empty()) list.append("  - ").append(name).append("\n");
    names = comma == std::string_view::npos ? std::string_view{} : names.substr(comma + 1);
  }
  return list;
}

}  // namespace

int main(int argc, char** argv) {
  std::string krino = krino::bench::default_krino();
  fs::path workdir = fs::temp_directory_path() / "krino-bench";
  std::vector<uint64_t> sizes;
  std::string evaluators = krino::bench::kAgentEvaluators;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--krino" && i + 1 < argc) krino = argv[++i];
    else if (a == "--workdir" && i + 1 < argc) workdir = argv[++i];
    else if (a == "--items" && i + 1 < argc) sizes.push_back(std::strtoull(argv[++i], nullptr, 10));
    else if (a == "--evaluators" && i + 1 < argc) evaluators = evaluator_list(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--krino PATH] [--workdir DIR] [--items N]... [--evaluators A,B]\n", argv[0]);
      return 2;
    }
  }
  if (sizes.empty()) sizes = {1000000};
  fs::create_directories(workdir);

  std::printf("%-10s %10s %12s %12s %10s\n", "items", "seconds", "cases/s", "MB/s", "peak RSS");
  for (uint64_t n : sizes) {
    fs::path data = workdir / ("agent-cases-" + std::to_string(n) + ".jsonl");
    if (!fs::exists(data)) krino::bench::generate_agent_cases(data, n);
    fs::path experiment = workdir / ("agent-bench-" + std::to_string(n) + ".yaml");
    std::ofstream(experiment) << "name: agent-bench\ndataset: " << data.string()
                              << "\ntask: replay\n"
                              << evaluators << "min_pass_rate: 0\n";
    auto r = krino::bench::run_measured({krino, "run", experiment.string()});
    if (r.exit_code != 0) {
      std::fprintf(stderr, "krino run failed with exit code %d\n", r.exit_code);
      return 1;
    }
    const double mb = static_cast<double>(fs::file_size(data)) / 1e6;
    std::printf("%-10llu %10.2f %12.0f %12.1f %7.1f MB\n", static_cast<unsigned long long>(n), r.seconds,
                static_cast<double>(n) / r.seconds, mb / r.seconds, r.peak_rss_mb);
    std::fflush(stdout);
  }
  return 0;
}
