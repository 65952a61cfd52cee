// The single-line progress display drawn on a terminal while a run goes on:
//   run 2/3 [#######-------------] 412/1000 41% | 123 items/s | ETA 0:05 | 400 passed, 10 failed, 2 errors
// It is redrawn in place with a carriage return, at most every kRedrawInterval, and erased
// before anything else is printed.
#ifndef KRINO_CONSOLE_PROGRESS_BAR_HPP
#define KRINO_CONSOLE_PROGRESS_BAR_HPP

#include "events.hpp"
#include "style.hpp"
#include "text_output.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace krino::console {

using SteadyClock = std::function<std::chrono::steady_clock::time_point()>;

// Where a run stands, as the bar shows it.
struct ProgressSnapshot {
  uint32_t run_index = 0;
  uint32_t runs = 1;
  std::optional<uint64_t> total;  // the dataset's size hint
  uint64_t done = 0;
  uint64_t passed = 0;
  uint64_t failed = 0;  // without the errored items
  uint64_t errors = 0;
  double elapsed_seconds = 0;
};

struct RenderedLine {
  std::string text;   // may hold colour escapes
  std::size_t width;  // columns it takes on screen
};

// The bar's line, fitted into `width` columns: the bar itself shrinks first, then disappears,
// and as a last resort the line is cut (without colour).
RenderedLine render_progress(const ProgressSnapshot& snapshot, std::size_t width, const Style& style);

class ProgressBar {
 public:
  static constexpr std::chrono::milliseconds kRedrawInterval{100};
  // Width used when the output cannot tell its own.
  static constexpr unsigned kDefaultColumns = 80;

  ProgressBar(TextOutput& output, Style style, SteadyClock clock);

  // Resets the counts for a new run and draws at once.
  void start_run(uint32_t run_index, uint32_t runs, std::optional<uint64_t> total);
  // Counts one finished item; redraws when kRedrawInterval has passed since the last drawing.
  void add(Verdict verdict);
  // Erases the line, leaving the cursor at its start. Does nothing when nothing is shown.
  void clear();
  bool visible() const { return shown_width_ > 0; }

 private:
  void draw(std::chrono::steady_clock::time_point now);

  TextOutput& output_;
  Style style_;
  SteadyClock clock_;
  ProgressSnapshot snapshot_;
  std::chrono::steady_clock::time_point run_started_{};
  std::chrono::steady_clock::time_point last_draw_{};
  std::size_t shown_width_ = 0;
};

}  // namespace krino::console

#endif  // KRINO_CONSOLE_PROGRESS_BAR_HPP
