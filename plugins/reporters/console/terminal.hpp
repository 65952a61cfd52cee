// Terminal decisions: whether to colour and whether to draw a progress bar, from the user's
// option, the stream's TTY-ness and the environment (https://no-color.org).
#ifndef KRINO_CONSOLE_TERMINAL_HPP
#define KRINO_CONSOLE_TERMINAL_HPP

#include <string>
#include <string_view>

namespace krino::console {

// The `progress` and `color` options.
enum class When { automatic, always, never };

// "auto" | "always" | "never"; throws krino::Error (INVALID_ARGUMENT) naming `option` otherwise.
When parse_when(std::string_view option, std::string_view value);

// The environment variables that matter, read once when a reporter is created.
struct Environment {
  std::string no_color;  // NO_COLOR; empty when unset
  std::string term;      // TERM; empty when unset

  static Environment from_process();
};

// Colour: `always` and `never` win over everything (a per-run option overrides NO_COLOR, as
// no-color.org asks). `auto` colours a terminal unless NO_COLOR is set to a non-empty value or
// TERM is "dumb".
bool color_enabled(When when, bool is_terminal, const Environment& environment);

// The progress bar: `auto` draws it on a terminal only.
bool progress_enabled(When when, bool is_terminal);

}  // namespace krino::console

#endif  // KRINO_CONSOLE_TERMINAL_HPP
