// The console reporter's closing text: one line per finished run, and the experiment summary
// (pass rate, evaluator table, failed and errored items).
#ifndef KRINO_CONSOLE_SUMMARY_PRINTER_HPP
#define KRINO_CONSOLE_SUMMARY_PRINTER_HPP

#include "events.hpp"
#include "failure_log.hpp"
#include "style.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace krino::console {

// Everything the summary shows, gathered from the events.
struct ExperimentReport {
  std::string name;
  uint32_t runs_planned = 1;
  Finished summary;                // experiment_finished
  std::vector<Finished> runs;      // every run_finished, in order
  const FailureLog* failed = nullptr;
  const FailureLog* errored = nullptr;
  std::size_t max_shown = 20;      // the max_failures_shown option, to explain an empty list
};

// "run 1/3 completed in 1.52 s: 5 items, 2 passed, 2 failed, 1 error (40.0%)", no newline.
std::string render_run_line(const Finished& run, uint32_t runs, const Style& style);

// The whole summary, every line ending in a newline.
std::string render_summary(const ExperimentReport& report, const Style& style);

}  // namespace krino::console

#endif  // KRINO_CONSOLE_SUMMARY_PRINTER_HPP
