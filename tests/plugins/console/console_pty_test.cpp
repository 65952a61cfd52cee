// The progress bar on a real pseudo-terminal: what a user at a shell sees.
#include "console_reporter.hpp"
#include "console_test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

using namespace krino::console;
using namespace std::chrono_literals;
namespace t = krino::console::testing;

namespace {

// A pseudo-terminal in raw mode (no newline translation), 120 columns wide. Reads what the
// "screen" received without blocking.
class PseudoTerminal {
 public:
  PseudoTerminal() {
    winsize size{};
    size.ws_col = 120;
    size.ws_row = 40;
    BOOST_REQUIRE(openpty(&master_, &slave_, nullptr, nullptr, &size) == 0);
    termios mode{};
    BOOST_REQUIRE(tcgetattr(slave_, &mode) == 0);
    cfmakeraw(&mode);
    BOOST_REQUIRE(tcsetattr(slave_, TCSANOW, &mode) == 0);
    BOOST_REQUIRE(fcntl(master_, F_SETFL, fcntl(master_, F_GETFL) | O_NONBLOCK) == 0);
    file_ = fdopen(slave_, "w");
    BOOST_REQUIRE(file_ != nullptr);
  }
  ~PseudoTerminal() {
    std::fclose(file_);
    close(master_);
  }
  std::FILE* file() const { return file_; }

  // Everything the terminal received so far. The kernel hands pty output to the reading side
  // asynchronously, so reading waits until nothing has arrived for `quiet`.
  std::string drain(std::chrono::milliseconds quiet = std::chrono::milliseconds(0)) {
    char buffer[4096];
    for (;;) {
      pollfd ready{master_, POLLIN, 0};
      const int polled = poll(&ready, 1, static_cast<int>(quiet.count()));
      if (polled < 0 && errno == EINTR) continue;
      if (polled <= 0) break;
      const ssize_t n = read(master_, buffer, sizeof buffer);
      if (n > 0) {
        screen_.append(buffer, static_cast<std::size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      break;
    }
    return screen_;
  }

 private:
  int master_ = -1;
  int slave_ = -1;
  std::FILE* file_ = nullptr;
  std::string screen_;
};

// Feeds five items 60 ms apart: with 100 ms between redraws, the bar is drawn at the start and
// after items 2 and 4.
std::string run_on_pty(const Environment& environment) {
  PseudoTerminal tty;
  FileOutput progress(tty.file());
  BOOST_REQUIRE(progress.is_terminal());
  t::StringOutput summary;
  t::FakeClock clock;
  ConsoleReporter reporter(ConsoleOptions{}, summary, progress, environment, clock.function());
  std::vector<std::string> events = t::single_run_events();
  reporter.on_event(krino::Event(events[0]));
  for (std::size_t i = 1; i <= 5; ++i) {
    clock.advance(60ms);
    reporter.on_event(krino::Event(events[i]));
    tty.drain();  // keep the terminal's buffer from filling
  }
  reporter.on_event(krino::Event(events[6]));
  reporter.on_event(krino::Event(events[7]));
  reporter.flush();
  BOOST_TEST(summary.text.rfind("Experiment \"qa-smoke\" completed", 0) == 0);
  return tty.drain(std::chrono::milliseconds(200));
}

std::size_t console_pty_count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(console_pty)

BOOST_AUTO_TEST_CASE(the_bar_is_redrawn_in_place_with_rate_and_eta) {
  const std::string screen = run_on_pty(Environment{"", "xterm-256color"});
  // Three drawings and one erase, all starting with a carriage return.
  BOOST_TEST(console_pty_count_of(screen, "\r[") == 3u);
  BOOST_TEST(screen.find("\r[------------------------------] 0/5 0% | ") == 0u);
  BOOST_TEST(screen.find("] 2/5 40% | 17 items/s | ETA 0:01 | ") != std::string::npos);
  BOOST_TEST(screen.find("] 4/5 80% | 17 items/s | ETA 0:01 | ") != std::string::npos);
  // Colour on a terminal: one pass, one error so far at the second drawing.
  BOOST_TEST(screen.find("\x1b[32m1 passed\x1b[0m, 0 failed, \x1b[33m1 error\x1b[0m") != std::string::npos);
  // No per-item lines: the bar stands in for them; the bar is erased before the run line.
  BOOST_TEST(screen.find("FAIL") == std::string::npos);
  const std::size_t run_line = screen.find("run 1/1 ");
  BOOST_REQUIRE(run_line != std::string::npos);
  BOOST_TEST(screen.substr(run_line - 2, 2) == " \r");
  BOOST_TEST(screen.substr(screen.size() - 1) == "\n");
}

BOOST_AUTO_TEST_CASE(no_color_keeps_the_bar_but_drops_the_escapes) {
  const std::string screen = run_on_pty(Environment{"1", "xterm-256color"});
  BOOST_TEST(screen.find('\x1b') == std::string::npos);
  BOOST_TEST(screen.find("] 2/5 40% | 17 items/s | ETA 0:01 | 1 passed, 0 failed, 1 error") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
