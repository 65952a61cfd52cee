// kill -9 at random moments of a long run, then `krino run --resume` until it completes: the final
// report holds every item exactly once and the summary of an uninterrupted run of the same
// experiment. The size and the number of kills come from KRINO_RESUME_ITEMS (default 100,000) and
// KRINO_RESUME_KILLS (default 4); the kill points from a fixed seed, printed on failure.
#include "process.hpp"
#include "resume_support.hpp"
#include "test_paths.hpp"

#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

using namespace krino::test;
namespace fs = std::filesystem;

namespace {

uint64_t setting(const char* name, uint64_t fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::strtoull(value, nullptr, 10) : fallback;
}

std::size_t line_count(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::size_t n = 0;
  std::string line;
  while (std::getline(in, line)) ++n;
  return n;
}

// The size in bytes is cheaper to poll than the lines; an item line here is about 300 bytes.
uint64_t file_size(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 ? static_cast<uint64_t>(info.st_size) : 0;
}

}  // namespace

BOOST_AUTO_TEST_CASE(kill_minus_nine_then_resume_loses_and_repeats_nothing) {
  const uint64_t items = setting("KRINO_RESUME_ITEMS", 100000);
  const uint64_t kills = setting("KRINO_RESUME_KILLS", 4);
  std::string pattern = (fs::temp_directory_path() / "krino-resume-kill-XXXXXX").string();
  BOOST_REQUIRE(::mkdtemp(pattern.data()) != nullptr);
  const fs::path dir = pattern;
  const std::string data = (dir / "data.jsonl").string();
  {
    std::ofstream out(data);
    for (uint64_t i = 0; i < items; ++i)
      out << "{\"id\":\"q" << i << "\",\"input\":\"question " << i << "\",\"expectedOutput\":\"a" << i % 7
          << "\",\"actualOutput\":\"a" << i % 5 << "\"}\n";
  }
  auto experiment = [&](const std::string& report) {
    const std::string file = (dir / "exp.yaml").string();
    write_file(file, "dataset: " + data + "\nevaluators: [exact_match]\nmin_pass_rate: 0\nparallelism: 2\n"
                     "reporters: [{json: {path: " + report + "}}]\n");
    return file;
  };
  auto run = [&](const std::string& file, std::vector<std::string> extra, ProcessOptions options = {}) {
    std::vector<std::string> argv = {krino_binary(), "run", file, "--plugins", "files,text,json"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_process(argv, options);
  };

  const std::string full = (dir / "full.jsonl").string();
  BOOST_REQUIRE_EQUAL(run(experiment(full), {}).exit_code, 0);
  const uint64_t full_size = file_size(full);

  const std::string report = (dir / "out.jsonl").string();
  const std::string file = experiment(report);
  std::mt19937_64 random(20261127);
  for (uint64_t k = 0; k < kills; ++k) {
    // The first attempt writes the report itself; each resume writes beside it.
    const std::string written = k == 0 ? report : report + ".resuming";
    const uint64_t at = std::uniform_int_distribution<uint64_t>(1, full_size - 1)(random);
    ProcessOptions options;
    options.interrupt_signal = SIGKILL;
    options.interrupt_when = [written, at] { return file_size(written) >= at; };
    std::vector<std::string> extra;
    if (k > 0) extra = {"--resume", report};
    const ProcessResult r = run(file, extra, options);
    BOOST_TEST_MESSAGE("kill " << k << " at byte " << at << ": exit " << r.exit_code);
    // A run may finish before the kill lands; then the report is complete already.
    BOOST_REQUIRE_MESSAGE(r.exit_code == 128 + SIGKILL || r.exit_code == 0, r.err);
  }
  const ProcessResult last = run(file, {"--resume", report});
  BOOST_REQUIRE_MESSAGE(last.exit_code == 0, last.err);

  const ReportContent expected = read_report(full);
  const ReportContent resumed = read_report(report);
  BOOST_TEST(resumed.item_counts.size() == items);
  for (const auto& [key, count] : resumed.item_counts) BOOST_TEST_REQUIRE(count == 1);
  BOOST_TEST(resumed.success == expected.success);
  BOOST_TEST(resumed.experiment_summary == expected.experiment_summary);
  BOOST_TEST(resumed.lines == expected.lines);
  BOOST_TEST(line_count(report) == line_count(full));
  std::error_code ec;
  fs::remove_all(dir, ec);
}
