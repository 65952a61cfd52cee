#include "terminal.hpp"

#include <krino/plugin.hpp>

#include <cstdlib>

namespace krino::console {

When parse_when(std::string_view option, std::string_view value) {
  if (value == "auto") return When::automatic;
  if (value == "always") return When::always;
  if (value == "never") return When::never;
  throw krino::invalid_argument("option '" + std::string(option) +
                                "' must be \"auto\", \"always\" or \"never\", not \"" + std::string(value) + "\"");
}

Environment Environment::from_process() {
  Environment environment;
  if (const char* value = std::getenv("NO_COLOR")) environment.no_color = value;
  if (const char* value = std::getenv("TERM")) environment.term = value;
  return environment;
}

bool color_enabled(When when, bool is_terminal, const Environment& environment) {
  switch (when) {
    case When::always:
      return true;
    case When::never:
      return false;
    case When::automatic:
      break;
  }
  return is_terminal && environment.no_color.empty() && environment.term != "dumb";
}

bool progress_enabled(When when, bool is_terminal) {
  switch (when) {
    case When::always:
      return true;
    case When::never:
      return false;
    case When::automatic:
      break;
  }
  return is_terminal;
}

}  // namespace krino::console
