// Whether a text is empty or only white space (ASCII: space, tab, CR, LF, form feed, vertical tab):
// a blank tool result, a blank tool description, a blank prompt option.
#ifndef KRINO_AGENT_BLANK_TEXT_H
#define KRINO_AGENT_BLANK_TEXT_H

#include <string_view>

namespace krino::agent {

inline bool is_blank_text(std::string_view text) {
  return text.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos;
}

}  // namespace krino::agent

#endif  // KRINO_AGENT_BLANK_TEXT_H
