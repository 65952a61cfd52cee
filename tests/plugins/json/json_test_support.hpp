// Shared by the json reporter's tests: a scratch directory and file helpers.
#ifndef KRINO_TESTS_JSON_TEST_SUPPORT_HPP
#define KRINO_TESTS_JSON_TEST_SUPPORT_HPP

#include "reporter_events.hpp"

#include <string>
#include <vector>

namespace krino::jsonl::testing {

// The scratch directory and file helpers every reporter's tests share.
using krino::testing::reports::read_file;
using krino::testing::reports::ScratchDirectory;
using krino::testing::reports::write_file;

// A two-item run as the host writes it (key order and spacing kept as they come).
inline std::vector<std::string> two_item_run() {
  return {
      R"({"event":"run_started","schema":"krino.event/1","run_index":0,"runs":1,"experiment":{"name":"capitals","description":"","metadata":{}},"dataset":{"uri":"capitals.jsonl","name":"capitals","description":"","sizeHint":2},"evaluators":[{"name":"exact_match","component":"krino.exact_match","threshold":1E0}],"parallelism":4,"timestamp":"2026-11-21T10:00:00Z"})",
      R"({"event":"item_finished","schema":"krino.event/1","run_index":0,"index":0,"id":"q-1","location":"capitals.jsonl:1","success":true,"error":null,"inputs":{"input":"Capital of France?"},"expectedOutputs":{"output":"Paris"},"actualOutputs":{"output":"Paris"},"metadata":{},"results":[{"name":"exact_match","score":1E0,"success":true,"threshold":1E0,"reason":"exact match","metadata":{}}],"metrics":null,"durationMs":4.1E-1})",
      R"({"event":"item_finished","schema":"krino.event/1","run_index":0,"index":1,"id":"q-2","location":"capitals.jsonl:2","success":false,"error":null,"inputs":{"input":"Capital of Italy?"},"expectedOutputs":{"output":"Rome"},"actualOutputs":{"output":"Milan"},"metadata":{},"results":[{"name":"exact_match","score":0E0,"success":false,"threshold":1E0,"reason":"expected \"Rome\", got \"Milan\"","metadata":{}}],"metrics":null,"durationMs":3.8E-1})",
      R"({"event":"run_finished","schema":"krino.event/1","run_index":0,"status":"completed","durationMs":1.25E1,"summary":{"totalCount":2,"passCount":1,"failCount":1,"errorCount":0,"passRate":5E-1,"evaluators":{"exact_match":{"count":2,"averageScore":5E-1,"stdDev":7.07107E-1,"passRate":5E-1,"nullScores":0}}}})",
      R"({"event":"experiment_finished","schema":"krino.event/1","run_index":null,"status":"completed","durationMs":1.3E1,"summary":{"runCount":1,"totalCount":2,"passCount":1E0,"failCount":1E0,"passRate":5E-1,"errorCount":0E0,"evaluators":{"exact_match":{"averageScore":5E-1,"stdDev":0E0,"passRate":5E-1,"itemStdDev":7.07107E-1}}}})",
  };
}

inline std::string as_lines(const std::vector<std::string>& documents) {
  std::string text;
  for (const auto& d : documents) text += d + "\n";
  return text;
}

}  // namespace krino::jsonl::testing

#endif  // KRINO_TESTS_JSON_TEST_SUPPORT_HPP
