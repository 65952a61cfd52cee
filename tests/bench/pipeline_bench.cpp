// Benchmarks (a) and (c): cases per second through the whole pipeline (JSONL resolver, replay task,
// text evaluators, json reporter) and the peak RSS of `krino run`, at several dataset sizes.
//
//   krino_pipeline_bench [--krino PATH] [--workdir DIR] [--results-dir DIR] [--items N]...
//                                                    (default sizes: 10000 1000000)
//
// The JSON Lines report (2.6 GB for a million cases) goes to --results-dir, by default /dev/shm
// when it exists: the figure is krino's, not the disk's writeback. Point it at a disk to see both.
//
// Each case is about 2 KB: a question, a structured expected answer, a recorded actual answer that
// differs in one case out of seven, and metadata. Files are generated once and reused.
#include "bench_process.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::string padding(size_t n, uint64_t seed) {
  static const char* words[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"};
  std::string out;
  while (out.size() < n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    out += words[(seed >> 33) % 9];
    out += ' ';
  }
  out.resize(n);
  return out;
}

void generate(const fs::path& file, uint64_t items) {
  std::ofstream out(file, std::ios::binary);
  std::string line;
  for (uint64_t i = 0; i < items; ++i) {
    const bool wrong = i % 7 == 3;
    std::string answer = "{\"city\":\"Paris\",\"population\":2102650,\"area_km2\":105.4,\"tags\":[\"capital\",\"europe\",\"" +
                         padding(40, i) + "\"],\"notes\":\"" + padding(380, i + 1) + "\"}";
    std::string actual = wrong ? "{\"city\":\"Lyon\",\"population\":2102650.0,\"area_km2\":105.40,\"tags\":[\"capital\",\"europe\",\"" +
                                     padding(40, i) + "\"],\"notes\":\"" + padding(380, i + 1) + "\"}"
                               : "{\"population\":2102650.0,\"city\":\"Paris\",\"area_km2\":105.40,\"tags\":[\"capital\",\"europe\",\"" +
                                     padding(40, i) + "\"],\"notes\":\"" + padding(380, i + 1) + "\"}";
    line = "{\"id\":\"case-" + std::to_string(i) + "\",\"inputs\":{\"input\":\"Describe the capital of France. " +
           padding(300, i + 2) + "\"},\"expectedOutputs\":{\"output\":" + answer + ",\"label\":\"Paris\"},\"actualOutputs\":{\"output\":" +
           actual + ",\"label\":\"" + (wrong ? "Lyon" : "Paris") + "\"},\"metadata\":{\"source\":\"bench\",\"batch\":" +
           std::to_string(i / 1000) + ",\"trace\":\"" + padding(180, i + 3) + "\"}}\n";
    out << line;
  }
}

}  // namespace

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
    if (!fs::exists(data)) generate(data, n);
    fs::path experiment = workdir / ("bench-" + std::to_string(n) + ".yaml");
    std::ofstream(experiment) << "name: pipeline-bench\ndataset: " << data.string()
                              << "\ntask: replay\nevaluators:\n"
                                 "  - exact_match: {output_key: label}\n"
                                 "  - structural_match: {match_mode: strict}\n"
                                 "  - regex: {pattern: 'Paris|Lyon', output_key: label}\n"
                                 "  - contains: {value: Paris, output_key: label}\n"
                                 "reporters: [{json: {path: "
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
