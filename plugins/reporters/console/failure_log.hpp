// A bounded record of failed (or errored) items for the final summary: keeps the first
// `capacity` descriptions in arrival order and only counts the rest, so memory stays flat on a
// million-item run.
#ifndef KRINO_CONSOLE_FAILURE_LOG_HPP
#define KRINO_CONSOLE_FAILURE_LOG_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace krino::console {

class FailureLog {
 public:
  explicit FailureLog(std::size_t capacity) : capacity_(capacity) {}

  void add(std::string description) {
    ++total_;
    if (kept_.size() < capacity_) kept_.push_back(std::move(description));
  }

  const std::vector<std::string>& kept() const { return kept_; }
  // Every item added, kept or not.
  uint64_t total() const { return total_; }
  // Added but not kept: the "and N more".
  uint64_t omitted() const { return total_ - kept_.size(); }

 private:
  std::size_t capacity_;
  uint64_t total_ = 0;
  std::vector<std::string> kept_;
};

}  // namespace krino::console

#endif  // KRINO_CONSOLE_FAILURE_LOG_HPP
