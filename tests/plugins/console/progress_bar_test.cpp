#include "console_test_support.hpp"
#include "progress_bar.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace krino::console;
using namespace std::chrono_literals;
namespace t = krino::console::testing;

namespace {
ProgressSnapshot snapshot(std::optional<uint64_t> total, uint64_t done, double elapsed, uint32_t runs = 1) {
  ProgressSnapshot s;
  s.run_index = runs > 1 ? 1 : 0;
  s.runs = runs;
  s.total = total;
  s.done = done;
  s.passed = done >= 12 ? done - 12 : done;
  s.failed = done >= 12 ? 10 : 0;
  s.errors = done >= 12 ? 2 : 0;
  s.elapsed_seconds = elapsed;
  return s;
}

std::size_t progress_bar_count_of(const std::string& text, char c) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), c)); }
}  // namespace

BOOST_AUTO_TEST_SUITE(console_progress_bar)

BOOST_AUTO_TEST_CASE(a_known_total_gets_a_bar_percentage_rate_and_eta) {
  const RenderedLine line = render_progress(snapshot(1000, 412, 3.35, 3), 119, Style(false));
  BOOST_TEST(line.text ==
             "run 2/3 [############------------------] 412/1000 41% | 123 items/s | ETA 0:05 | 400 passed, 10 failed, 2 errors");
  BOOST_TEST(line.width == line.text.size());
}

BOOST_AUTO_TEST_CASE(an_unknown_total_counts_items_without_bar_or_eta) {
  const RenderedLine line = render_progress(snapshot(std::nullopt, 412, 3.35), 119, Style(false));
  BOOST_TEST(line.text == "412 items | 123 items/s | 400 passed, 10 failed, 2 errors");
}

BOOST_AUTO_TEST_CASE(before_the_first_item_there_is_no_rate) {
  const RenderedLine line = render_progress(snapshot(5, 0, 0), 79, Style(false));
  BOOST_TEST(line.text == "[------------------------------] 0/5 0% | 0 passed, 0 failed, 0 errors");
}

BOOST_AUTO_TEST_CASE(slow_rates_keep_a_decimal) {
  const RenderedLine line = render_progress(snapshot(10, 3, 1.0), 79, Style(false));
  BOOST_TEST(line.text.find("| 3.0 items/s | ETA 0:03 |") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_bar_shrinks_then_goes_then_the_line_is_cut) {
  const ProgressSnapshot s = snapshot(1000, 412, 3.35, 3);
  const std::string tail = " 412/1000 41% | 123 items/s | ETA 0:05 | 400 passed, 10 failed, 2 errors";
  const RenderedLine narrow = render_progress(s, 7 + 1 + 12 + tail.size(), Style(false));
  BOOST_TEST(narrow.text == "run 2/3 [####------]" + tail);
  const RenderedLine no_bar = render_progress(s, 7 + 1 + 11 + tail.size(), Style(false));
  BOOST_TEST(no_bar.text == "run 2/3" + tail);
  const RenderedLine cut = render_progress(s, 30, Style(true));
  BOOST_TEST(cut.text == "run 2/3 412/1000 41% | 123 ite");
  BOOST_TEST(cut.width == 30u);
}

BOOST_AUTO_TEST_CASE(counts_are_coloured_when_colour_is_on) {
  const RenderedLine line = render_progress(snapshot(1000, 412, 3.35), 200, Style(true));
  BOOST_TEST(line.text.find("\x1b[32m400 passed\x1b[0m, \x1b[31m10 failed\x1b[0m, \x1b[33m2 errors\x1b[0m") !=
             std::string::npos);
  BOOST_TEST(line.width < line.text.size());
}

BOOST_AUTO_TEST_CASE(redraws_at_most_every_hundred_milliseconds) {
  t::StringOutput out(true, 100);
  t::FakeClock clock;
  ProgressBar bar(out, Style(false), clock.function());
  bar.start_run(0, 1, 50);
  BOOST_TEST(progress_bar_count_of(out.text, '\r') == 1u);
  for (int i = 0; i < 50; ++i) {
    clock.advance(10ms);
    bar.add(Verdict::pass);
  }
  // 500 ms of items at 10 ms each: one drawing per 100 ms, plus the first.
  BOOST_TEST(progress_bar_count_of(out.text, '\r') == 6u);
  BOOST_TEST(out.text.find("50/50 100% | 100 items/s | ETA 0:00 | 50 passed, 0 failed, 0 errors") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(clearing_blanks_the_line_and_a_shorter_line_covers_a_longer_one) {
  t::StringOutput out(true, 100);
  t::FakeClock clock;
  ProgressBar bar(out, Style(false), clock.function());
  bar.start_run(0, 1, std::nullopt);
  const std::string first = "\r0 items | 0 passed, 0 failed, 0 errors";
  BOOST_TEST(out.text == first);
  BOOST_TEST(bar.visible());
  bar.clear();
  BOOST_TEST(out.text == first + "\r" + std::string(first.size() - 1, ' ') + "\r");
  BOOST_TEST(!bar.visible());
  out.text.clear();
  bar.clear();
  BOOST_TEST(out.text.empty());

  // A line that gets shorter is padded so nothing of the older one remains.
  bar.start_run(0, 1, std::nullopt);
  for (int i = 0; i < 10; ++i) bar.add(Verdict::pass);
  clock.advance(1000ms);
  bar.add(Verdict::error);
  out.text.clear();
  bar.start_run(0, 1, std::nullopt);
  BOOST_TEST(out.text == "\r0 items | 0 passed, 0 failed, 0 errors" + std::string(14, ' '));
}

BOOST_AUTO_TEST_SUITE_END()
