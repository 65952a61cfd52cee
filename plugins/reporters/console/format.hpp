// Text formatting shared by the console reporter's printers: numbers, durations, one-line text.
#ifndef KRINO_CONSOLE_FORMAT_HPP
#define KRINO_CONSOLE_FORMAT_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace krino::console {

// `value` with exactly `decimals` decimals ("0.50"); never prints "-0.00".
std::string fixed(double value, int decimals);

// A fraction in 0..1 as a percentage with one decimal: 0.913 -> "91.3%".
std::string percent(double fraction);

// A count that is a whole number for one run and may be a mean over runs: 3 -> "3", 2.333 -> "2.33".
std::string count(double value);

// "1 error", "2 errors", "2.33 errors": the noun agrees with the count as printed by count().
std::string counted(double value, std::string_view singular, std::string_view plural);

// A duration in milliseconds, short and human: "850 ms", "1.52 s", "2 min 03 s", "1 h 02 min".
std::string duration(double milliseconds);

// A remaining time in seconds as a clock: "0:05", "12:34", "1:02:03".
std::string clock_time(double seconds);

// `text` made safe for one terminal line: every run of control characters (newlines, tabs,
// escape sequences' ESC, ...) becomes one space, ends are trimmed, and text longer than
// `max_chars` code points is cut at a code point boundary and ends with "...".
std::string single_line(std::string_view text, std::size_t max_chars);

// Number of code points in UTF-8 text (what a terminal shows, for the ASCII and Latin text we print).
std::size_t display_width(std::string_view text);

}  // namespace krino::console

#endif  // KRINO_CONSOLE_FORMAT_HPP
