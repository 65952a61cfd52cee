// LangSmith runs out of the documents that hold them, merged and in execution order.
//   {"post": [runs], "patch": [runs]}    the ingestion batch (/runs/batch): a patch completes the run
//                                        with the same id (outputs, end_time, error)
//   {"runs": [runs]} or [runs]           exports and API listings
//   a run                                {"id", "name", "run_type", "inputs", "outputs", ...}
// Runs may nest their children under "child_runs" (run trees); they are flattened. Order: by
// "dotted_order" when every run has one (LangSmith's execution order), else by start time, else as
// written.
#ifndef KRINO_LANGSMITH_RUN_READER_HPP
#define KRINO_LANGSMITH_RUN_READER_HPP

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace krino::langsmith {

struct Run {
  std::string id;
  std::string parent_id;
  std::string name;
  std::string run_type;  // "llm", "chain", "tool", "retriever", ...
  boost::json::object run;  // the merged run document
  std::optional<int64_t> start_us;  // microseconds since the epoch (LangSmith's precision)
  std::optional<int64_t> end_us;
};

// nullopt when `document` holds no runs in any of the shapes above.
std::optional<std::vector<Run>> read_runs(const boost::json::value& document);

// Whether `value` looks like one run: an object with "run_type" and "inputs" or "outputs".
bool is_run(const boost::json::value& value);

// An ISO 8601 time ("2024-10-11T20:58:23.298773+00:00", "...Z", or without offset as UTC) in
// microseconds since the epoch; nullopt when it is not one.
std::optional<int64_t> iso_time_us(const std::string& text);

}  // namespace krino::langsmith

#endif  // KRINO_LANGSMITH_RUN_READER_HPP
