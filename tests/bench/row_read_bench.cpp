// The floor under the agent workload: what reading one agent case costs before any evaluator runs.
//
// The agent benchmark's target (150,000 cases/s on two cores) leaves 13.3 µs of CPU a case for
// everything: reading the file, the host's read of the row, four evaluators, the results, the item's
// line and the reporter. This program measures, on one thread and on rows already in memory (so no
// file reading and no cold caches: a floor, not an estimate), the ways a row of that workload can be
// read:
//   boost-validate : Boost.JSON's validating pass with a handler that keeps nothing, the least any
//                    reader built on Boost.JSON can cost;
//   host-read      : krino's own read of a row (ExampleView::from_text: that pass plus the spans of
//                    the top-level members), what `krino run` does once per case;
//   boost-dom      : a whole Boost.JSON document in a monotonic arena, what a plugin that parsed the
//                    whole case would pay;
//   simdjson-dom   : simdjson's DOM parser (reused, rows padded), when the build found Debian's
//                    libsimdjson-dev; its tape is the parse-once form the issue had in mind.
//
//   krino_row_read_bench [--workdir DIR] [--rows N] [--rounds R]   (defaults: 5000 rows, 7 rounds)
//
// Each figure is the median of R rounds over the same N rows (agent_cases.hpp's cases, written once
// to DIR/agent-cases-N.jsonl). The last column is the most cases a second two cores could score if
// that read were all there was to do.
#include "agent_cases.hpp"

#include "krino/core/task/example_view.hpp"

#include <boost/json.hpp>
#include <boost/json/basic_parser_impl.hpp>

#ifdef KRINO_BENCH_SIMDJSON
#include <simdjson.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

// A handler that accepts every event and keeps nothing: Boost.JSON's validation alone.
struct DiscardingHandler {
  static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);
  bool on_document_begin(json::error_code&) { return true; }
  bool on_document_end(json::error_code&) { return true; }
  bool on_object_begin(json::error_code&) { return true; }
  bool on_object_end(std::size_t, json::error_code&) { return true; }
  bool on_array_begin(json::error_code&) { return true; }
  bool on_array_end(std::size_t, json::error_code&) { return true; }
  bool on_key_part(json::string_view, std::size_t, json::error_code&) { return true; }
  bool on_key(json::string_view, std::size_t, json::error_code&) { return true; }
  bool on_string_part(json::string_view, std::size_t, json::error_code&) { return true; }
  bool on_string(json::string_view, std::size_t, json::error_code&) { return true; }
  bool on_number_part(json::string_view, json::error_code&) { return true; }
  bool on_int64(std::int64_t, json::string_view, json::error_code&) { return true; }
  bool on_uint64(std::uint64_t, json::string_view, json::error_code&) { return true; }
  bool on_double(double, json::string_view, json::error_code&) { return true; }
  bool on_bool(bool, json::error_code&) { return true; }
  bool on_null(json::error_code&) { return true; }
  bool on_comment_part(json::string_view, json::error_code&) { return true; }
  bool on_comment(json::string_view, json::error_code&) { return true; }
};

// Reads every row once per round; returns the median nanoseconds a row. `read` returns whether the
// row was accepted, and every row must be: a reader that refused one measured nothing.
template <class Rows, class Read>
double median_ns_per_row(const Rows& rows, int rounds, const char* name, Read read) {
  std::vector<double> per_row;
  for (int r = 0; r < rounds; ++r) {
    size_t accepted = 0;
    const auto start = std::chrono::steady_clock::now();
    for (const auto& row : rows) accepted += read(row) ? 1 : 0;
    const std::chrono::duration<double, std::nano> spent = std::chrono::steady_clock::now() - start;
    if (accepted != rows.size()) {
      std::fprintf(stderr, "%s refused %zu of %zu rows\n", name, rows.size() - accepted, rows.size());
      std::exit(1);
    }
    per_row.push_back(spent.count() / static_cast<double>(rows.size()));
  }
  std::nth_element(per_row.begin(), per_row.begin() + rounds / 2, per_row.end());
  return per_row[static_cast<size_t>(rounds / 2)];
}

void print_row(const char* name, double ns, double bytes_per_row) {
  constexpr double kTargetCasesPerSecond = 150000;
  constexpr double kCores = 2;
  const double budget_ns = kCores * 1e9 / kTargetCasesPerSecond;
  std::printf("%-16s %10.0f %10.0f %12.1f %%  %14.0f\n", name, ns, bytes_per_row / ns * 1e3, 100.0 * ns / budget_ns,
              kCores * 1e9 / ns);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  fs::path workdir = fs::temp_directory_path() / "krino-bench";
  uint64_t row_count = 5000;
  int rounds = 7;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--workdir" && i + 1 < argc) workdir = argv[++i];
    else if (a == "--rows" && i + 1 < argc) row_count = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--rounds" && i + 1 < argc) rounds = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: %s [--workdir DIR] [--rows N] [--rounds R]\n", argv[0]);
      return 2;
    }
  }
  if (row_count == 0) {
    std::fprintf(stderr, "--rows must be at least 1\n");
    return 2;
  }
  fs::create_directories(workdir);
  const fs::path data = workdir / ("agent-cases-" + std::to_string(row_count) + ".jsonl");
  if (!fs::exists(data)) krino::bench::generate_agent_cases(data, row_count);

  std::vector<std::string> rows;
  double bytes = 0;
  {
    std::ifstream in(data, std::ios::binary);
    for (std::string line; std::getline(in, line);) {
      bytes += static_cast<double>(line.size());
      rows.push_back(std::move(line));
    }
  }
  if (rows.size() != row_count) {
    std::fprintf(stderr, "%s holds %zu rows, expected %llu\n", data.c_str(), rows.size(),
                 static_cast<unsigned long long>(row_count));
    return 1;
  }
  const double bytes_per_row = bytes / static_cast<double>(rows.size());

  std::printf("%zu agent cases, %.0f bytes a row, median of %d rounds, one thread\n", rows.size(), bytes_per_row,
              rounds);
  std::printf("%-16s %10s %10s %14s  %14s\n", "read", "ns/row", "MB/s", "of 13.3 µs", "cases/s ceiling");

  print_row("boost-validate", median_ns_per_row(rows, rounds, "boost-validate", [](const std::string& row) {
              json::basic_parser<DiscardingHandler> parser{json::parse_options{}};
              json::error_code ec;
              parser.write_some(false, row.data(), row.size(), ec);
              return !ec;
            }), bytes_per_row);

  print_row("host-read", median_ns_per_row(rows, rounds, "host-read", [](const std::string& row) {
              return krino::core::ExampleView::from_text(row).has_value();
            }), bytes_per_row);

  json::stream_parser dom_parser;
  print_row("boost-dom", median_ns_per_row(rows, rounds, "boost-dom", [&dom_parser](const std::string& row) {
              json::monotonic_resource arena;
              dom_parser.reset(&arena);
              json::error_code ec;
              dom_parser.write(row.data(), row.size(), ec);
              if (!ec) dom_parser.finish(ec);
              return !ec && dom_parser.release().is_object();
            }), bytes_per_row);

#ifdef KRINO_BENCH_SIMDJSON
  std::vector<simdjson::padded_string> padded(rows.begin(), rows.end());
  simdjson::dom::parser simd_parser;
  print_row("simdjson-dom", median_ns_per_row(padded, rounds, "simdjson-dom", [&](const simdjson::padded_string& row) {
              simdjson::dom::element root;
              return simd_parser.parse(row).get(root) == simdjson::SUCCESS && root.is_object();
            }), bytes_per_row);
  std::printf("(simdjson %d.%d.%d, kernel %s)\n", simdjson::SIMDJSON_VERSION_MAJOR, simdjson::SIMDJSON_VERSION_MINOR,
              simdjson::SIMDJSON_VERSION_REVISION, simdjson::get_active_implementation()->name().c_str());
#else
  std::printf("(simdjson-dom: built without Debian's libsimdjson-dev)\n");
#endif
  return 0;
}
