// Benchmarks (a) and (c): cases per second through the whole pipeline (JSONL resolver, replay task,
// text evaluators, json reporter) and the peak RSS of `krino run`, at several dataset sizes.
//
//   krino_pipeline_bench [--krino PATH] [--workdir DIR] [--results-dir DIR] [--items N]...
//                                                    (default sizes: 10000 1000000)
//
// The JSON Lines report (2.6 GB for a million cases) goes to --results-dir, by default /dev/shm
// when it exists: the figure is krino's, not the disk's writeback. Point it at a disk to see both.
//
// The cases are text_cases.hpp's (about 2 KB each). Files are generated once and reused.
#include "bench_process.hpp"
#include "text_cases.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  std::string krino = krino::bench::default_krino();
  fs::path workdir = fs::temp_directory_path() / "krino-bench";
  fs::path results_dir = fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : workdir;
  std::vector<uint64_t> sizes;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--krino" && i + 1 < argc) krino = argv[++i];
    else if (a == "--workdir" && i + 1 < argc) workdir = argv[++i];
    else if (a == "--results-dir" && i + 1 < argc) results_dir = argv[++i];
    else if (a == "--items" && i + 1 < argc) sizes.push_back(std::strtoull(argv[++i], nullptr, 10));
    else {
      std::fprintf(stderr, "usage: %s [--krino PATH] [--workdir DIR] [--results-dir DIR] [--items N]...\n", argv[0]);
      return 2;
    }
  }
  if (sizes.empty()) sizes = {10000, 1000000};
  fs::create_directories(workdir);

  std::printf("%-10s %10s %12s %12s %10s\n", "items", "seconds", "cases/s", "MB/s", "peak RSS");
  for (uint64_t n : sizes) {
    fs::path data = workdir / ("cases-" + std::to_string(n) + ".jsonl");
    if (!fs::exists(data)) krino::bench::generate_text_cases(data, n);
    fs::path experiment = workdir / ("bench-" + std::to_string(n) + ".yaml");
    std::ofstream(experiment) << "name: pipeline-bench\ndataset: " << data.string()
                              << "\ntask: replay\n"
                              << krino::bench::kTextEvaluators << "reporters: [{json: {path: "
                              << (results_dir / "krino-bench-results.jsonl").string() << "}}]\nmin_pass_rate: 0\n";
    auto r = krino::bench::run_measured({krino, "run", experiment.string()});
    if (r.exit_code != 0) {
      std::fprintf(stderr, "krino run failed with exit code %d\n", r.exit_code);
      return 1;
    }
    fs::remove(results_dir / "krino-bench-results.jsonl");
    const double mb = static_cast<double>(fs::file_size(data)) / 1e6;
    std::printf("%-10llu %10.2f %12.0f %12.1f %7.1f MB\n", static_cast<unsigned long long>(n), r.seconds,
                static_cast<double>(n) / r.seconds, mb / r.seconds, r.peak_rss_mb);
    std::fflush(stdout);
  }
  return 0;
}
