// ANSI colour for the console reporter's text; a disabled style returns text unchanged.
#ifndef KRINO_CONSOLE_STYLE_HPP
#define KRINO_CONSOLE_STYLE_HPP

#include <string>
#include <string_view>

namespace krino::console {

class Style {
 public:
  explicit Style(bool enabled) : enabled_(enabled) {}
  bool enabled() const { return enabled_; }

  std::string green(std::string_view text) const { return paint("\x1b[32m", text); }
  std::string red(std::string_view text) const { return paint("\x1b[31m", text); }
  std::string yellow(std::string_view text) const { return paint("\x1b[33m", text); }
  std::string bold(std::string_view text) const { return paint("\x1b[1m", text); }

 private:
  std::string paint(std::string_view code, std::string_view text) const {
    if (!enabled_ || text.empty()) return std::string(text);
    std::string out;
    out.reserve(code.size() + text.size() + 4);
    out += code;
    out += text;
    out += "\x1b[0m";
    return out;
  }
  bool enabled_;
};

}  // namespace krino::console

#endif  // KRINO_CONSOLE_STYLE_HPP
