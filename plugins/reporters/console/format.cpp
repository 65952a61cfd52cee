#include "format.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace krino::console {

std::string fixed(double value, int decimals) {
  if (!std::isfinite(value)) return "-";
  // to_chars, unlike printf, ignores the process locale: the decimal point is always '.'.
  char buffer[400];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
  std::string text(buffer, result.ec == std::errc() ? result.ptr : buffer);
  // A tiny negative value rounds to "-0.00"; a reader should see "0.00".
  if (!text.empty() && text[0] == '-' && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);
  return text;
}

std::string percent(double fraction) { return fixed(fraction * 100.0, 1) + "%"; }

std::string count(double value) {
  const double rounded = std::round(value);
  if (std::fabs(value - rounded) < 5e-7) return fixed(rounded, 0);
  return fixed(value, 2);
}

std::string counted(double value, std::string_view singular, std::string_view plural) {
  std::string text = count(value);
  text += ' ';
  text += text == "1 " ? singular : plural;
  return text;
}

std::string duration(double milliseconds) {
  if (!std::isfinite(milliseconds) || milliseconds < 0) milliseconds = 0;
  if (milliseconds < 999.5) return fixed(milliseconds, 0) + " ms";
  if (milliseconds < 59'995.0) return fixed(milliseconds / 1000.0, 2) + " s";
  char buffer[64];
  const auto seconds = static_cast<unsigned long long>(std::llround(milliseconds / 1000.0));
  if (seconds < 3600) {
    std::snprintf(buffer, sizeof buffer, "%llu min %02llu s", seconds / 60, seconds % 60);
  } else {
    const auto minutes = static_cast<unsigned long long>(std::llround(milliseconds / 60'000.0));
    std::snprintf(buffer, sizeof buffer, "%llu h %02llu min", minutes / 60, minutes % 60);
  }
  return buffer;
}

std::string clock_time(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) seconds = 0;
  // Days-long estimates are noise; cap the display at 999:59:59.
  const auto total = static_cast<unsigned long long>(std::fmin(std::ceil(seconds), 999.0 * 3600 + 3599));
  char buffer[32];
  if (total >= 3600) {
    std::snprintf(buffer, sizeof buffer, "%llu:%02llu:%02llu", total / 3600, total / 60 % 60, total % 60);
  } else {
    std::snprintf(buffer, sizeof buffer, "%llu:%02llu", total / 60, total % 60);
  }
  return buffer;
}

namespace {

// Whether single_line would give `text` back unchanged: no control byte, no space at either end or
// twice in a row (or before a continuation byte), and within max_chars code points. Most reasons
// and names are, and checking costs less than building the copy byte by byte.
bool is_single_line(std::string_view text, std::size_t max_chars) {
  if (text.empty()) return true;
  if (static_cast<unsigned char>(text.front()) <= 0x20 || static_cast<unsigned char>(text.back()) <= 0x20) return false;
  std::size_t chars = 0;
  bool after_space = false;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) return false;
    const bool continuation = (byte & 0xC0) == 0x80;
    if (after_space && (byte == 0x20 || continuation)) return false;
    after_space = byte == 0x20;
    if (!continuation) ++chars;
  }
  return chars <= max_chars;
}

}  // namespace

std::string single_line(std::string_view text, std::size_t max_chars) {
  if (is_single_line(text, max_chars)) return std::string(text);
  std::string out;
  std::size_t chars = 0;
  bool pending_space = false;
  bool truncated = false;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte == 0x7f) {
      pending_space = !out.empty();
      continue;
    }
    if ((byte & 0xC0) != 0x80) {  // the first byte of a code point
      if (chars + (pending_space ? 2 : 1) > max_chars) {
        truncated = true;
        break;
      }
      if (pending_space) {
        out += ' ';
        ++chars;
        pending_space = false;
      }
      ++chars;
    }
    out += c;
  }
  if (truncated) {
    // Keep max_chars - 3 code points, then the ellipsis, so the result is max_chars wide.
    const std::size_t keep = max_chars > 3 ? max_chars - 3 : 0;
    std::size_t seen = 0;
    std::size_t cut = 0;
    for (; cut < out.size(); ++cut) {
      if ((static_cast<unsigned char>(out[cut]) & 0xC0) != 0x80 && seen++ == keep) break;
    }
    out.resize(cut);
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += "...";
  }
  return out;
}

std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  for (char c : text)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++width;
  return width;
}

}  // namespace krino::console
