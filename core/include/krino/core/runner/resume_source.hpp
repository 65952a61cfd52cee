#pragma once
// The items an interrupted run already finished, read back from its JSON Lines report for
// `krino run --resume`: the report is checked against the experiment about to run (the fingerprint
// in its run_started events), then read once, front to back, alongside the dataset. Memory holds one
// line at a time, whatever the report's size.
//
// The report holds items in dataset order within each run (the runner reports them so), so the
// runner asks for indices in increasing order and the source answers by reading forward. A torn last
// line (the process died inside a write) is not an item. When a file holds several experiments
// (the json reporter's `append`), the last one is resumed.
#include <krino/event/run_started.hpp>

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>

namespace krino::core {

class ResumeSource {
 public:
  // Opens `path` and checks that its last experiment was run with `expected`: the same settings
  // digest, the same shard (none, or the same K/N) and, when both know it, the same dataset size.
  // Throws a configuration error naming the file and what differs. With `retry_errors`, items that
  // ended in an error are run again.
  ResumeSource(std::string path, const krino::event::RunFingerprint& expected,
               const std::optional<krino::event::ShardInfo>& shard, bool retry_errors);

  // Starts reading run `run_index`'s items. Runs are started in increasing order.
  void start_run(uint32_t run_index);
  // The report's line for item `index` of the current run when it is kept, else nullopt (not in the
  // report, or an error to retry). Indices are asked in increasing order.
  std::optional<std::string> take(uint64_t index);

  const std::string& path() const { return path_; }
  uint64_t kept() const { return kept_; }

 private:
  struct Line {
    std::string text;
    uint64_t number = 0;  // 1-based line number, for messages
  };
  std::optional<Line> read_line();
  std::string where(uint64_t line) const;

  std::string path_;
  bool retry_errors_;
  std::ifstream in_;
  uint64_t next_line_number_ = 1;
  uint32_t run_ = 0;
  bool run_present_ = false;
  std::optional<Line> pending_;  // read but not yet used: an item ahead of the dataset, or the next run's start
  uint64_t kept_ = 0;
};

}  // namespace krino::core
