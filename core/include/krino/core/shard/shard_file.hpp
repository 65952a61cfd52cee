#pragma once
// One shard's krino.event/1 file, read one line at a time (`krino merge` holds a single line per
// shard, never a whole file).
#include <cstdint>
#include <fstream>
#include <optional>
#include <string>

namespace krino::core {

class ShardFile {
 public:
  // Throws a runtime error when the file cannot be opened.
  explicit ShardFile(std::string path);

  // Moves to the next event this merge knows (run_started, item_finished, run_finished,
  // experiment_finished), skipping events of other types. False at the end of the file. Throws a
  // runtime error, naming the file and line, for a line that is not a krino.event/1 object or
  // that the process did not finish writing.
  bool advance();

  const std::string& path() const { return path_; }
  uint64_t line_number() const { return line_number_; }
  const std::string& line() const { return line_; }
  const std::string& event() const { return event_; }
  std::optional<uint32_t> run_index() const { return run_index_; }
  uint64_t index() const { return index_; }  // item_finished only

  // "FILE:LINE", for messages.
  std::string where() const { return path_ + ":" + std::to_string(line_number_); }

 private:
  std::string path_;
  std::ifstream in_;
  uint64_t line_number_ = 0;
  std::string line_;
  std::string event_;
  std::optional<uint32_t> run_index_;
  uint64_t index_ = 0;
};

}  // namespace krino::core
