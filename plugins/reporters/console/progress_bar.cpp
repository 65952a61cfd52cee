#include "progress_bar.hpp"

#include "format.hpp"

#include <algorithm>
#include <vector>

namespace krino::console {
namespace {

constexpr std::size_t kMinBarCells = 10;
constexpr std::size_t kMaxBarCells = 30;

// A piece of the line: its plain text and how to print it in colour.
struct Piece {
  std::string plain;
  std::string painted;
};

Piece plain(std::string text) { return Piece{text, text}; }

std::string join(const std::vector<Piece>& pieces, bool painted, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (i > 0) out += separator;
    out += painted ? pieces[i].painted : pieces[i].plain;
  }
  return out;
}

}  // namespace

RenderedLine render_progress(const ProgressSnapshot& s, std::size_t width, const Style& style) {
  const bool bounded = s.total.has_value() && *s.total > 0 && s.done <= *s.total;

  // Head: "run 2/3" and the count, between which the bar goes.
  std::string run = s.runs > 1 ? "run " + std::to_string(s.run_index + 1) + "/" + std::to_string(s.runs) : "";
  std::string done;
  if (bounded) {
    done = std::to_string(s.done) + "/" + std::to_string(*s.total) + " " +
           std::to_string(s.done * 100 / *s.total) + "%";
  } else {
    done = counted(static_cast<double>(s.done), "item", "items");
  }

  // Tail: rate, ETA, tally, separated by " | ".
  std::vector<Piece> tail;
  if (s.elapsed_seconds > 0 && s.done > 0) {
    const double rate = static_cast<double>(s.done) / s.elapsed_seconds;
    tail.push_back(plain(fixed(rate, rate < 10 ? 1 : 0) + " items/s"));
    if (bounded) tail.push_back(plain("ETA " + clock_time(static_cast<double>(*s.total - s.done) / rate)));
  }
  Piece tally;
  const std::string passed = std::to_string(s.passed) + " passed";
  const std::string failed = std::to_string(s.failed) + " failed";
  const std::string errors = counted(static_cast<double>(s.errors), "error", "errors");
  tally.plain = passed + ", " + failed + ", " + errors;
  tally.painted = (s.passed > 0 ? style.green(passed) : passed) + ", " + (s.failed > 0 ? style.red(failed) : failed) +
                  ", " + (s.errors > 0 ? style.yellow(errors) : errors);
  tail.push_back(std::move(tally));

  const std::string tail_plain = join(tail, false, " | ");
  const std::size_t fixed_width = (run.empty() ? 0 : run.size() + 1) + done.size() + 3 + tail_plain.size();

  std::string bar;
  if (bounded && width >= fixed_width + 3 + kMinBarCells) {
    const std::size_t cells = std::min(kMaxBarCells, width - fixed_width - 3);
    const auto filled = static_cast<std::size_t>(s.done * cells / *s.total);
    bar = "[" + std::string(filled, '#') + std::string(cells - filled, '-') + "]";
  }

  auto assemble = [&](bool painted) {
    std::string line = run;
    if (!bar.empty()) line += (line.empty() ? "" : " ") + bar;
    line += (line.empty() ? "" : " ") + done;
    line += " | " + join(tail, painted, " | ");
    return line;
  };
  std::string line = assemble(false);
  if (line.size() > width) {
    line.resize(width);
    return RenderedLine{line, line.size()};
  }
  return RenderedLine{assemble(true), line.size()};
}

ProgressBar::ProgressBar(TextOutput& output, Style style, SteadyClock clock)
    : output_(output), style_(style), clock_(std::move(clock)) {}

void ProgressBar::start_run(uint32_t run_index, uint32_t runs, std::optional<uint64_t> total) {
  snapshot_ = ProgressSnapshot{};
  snapshot_.run_index = run_index;
  snapshot_.runs = runs;
  snapshot_.total = total;
  run_started_ = clock_();
  draw(run_started_);
}

void ProgressBar::add(Verdict verdict) {
  ++snapshot_.done;
  switch (verdict) {
    case Verdict::pass:
      ++snapshot_.passed;
      break;
    case Verdict::fail:
      ++snapshot_.failed;
      break;
    case Verdict::error:
      ++snapshot_.errors;
      break;
  }
  const auto now = clock_();
  if (now - last_draw_ >= kRedrawInterval) draw(now);
}

void ProgressBar::clear() {
  if (shown_width_ == 0) return;
  std::string text = "\r";
  text.append(shown_width_, ' ');
  text += '\r';
  output_.write(text);
  output_.flush();
  shown_width_ = 0;
}

void ProgressBar::draw(std::chrono::steady_clock::time_point now) {
  snapshot_.elapsed_seconds = std::chrono::duration<double>(now - run_started_).count();
  const unsigned columns = output_.columns() > 0 ? output_.columns() : kDefaultColumns;
  // One column short of the edge: writing the last column makes some terminals wrap.
  RenderedLine line = render_progress(snapshot_, columns > 1 ? columns - 1 : 1, style_);
  std::string text = "\r";
  text += line.text;
  if (line.width < shown_width_) text.append(shown_width_ - line.width, ' ');
  output_.write(text);
  output_.flush();
  shown_width_ = std::max<std::size_t>(line.width, 1);
  last_draw_ = now;
}

}  // namespace krino::console
