// Text helpers for reporters: UTF-8-safe excerpts, one-line forms, the text of an example's main
// value, and the number formats reports share. Header-only.
//
// Strings read from krino.event/1 documents are valid UTF-8 (the JSON parser checks), and every
// helper here keeps them so: a cut never splits a character.
#ifndef KRINO_REPORT_TEXT_HPP
#define KRINO_REPORT_TEXT_HPP

#include <krino/json_text.hpp>
#include <krino/utf8.hpp>

#include <krino/json_spans.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace krino::report {

// The length in bytes of the UTF-8 sequence that starts at text[i], or 0 when the bytes there are
// not a valid sequence (utf8::sequence_length).
inline std::size_t utf8_sequence_length(std::string_view text, std::size_t i) { return utf8::sequence_length(text, i); }

// The code point of the valid sequence of `length` bytes at text[i].
inline uint32_t utf8_code_point(std::string_view text, std::size_t i, std::size_t length) {
  const auto byte = [&](std::size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(text[k])); };
  if (length == 1) return byte(i);
  uint32_t code_point = byte(i) & (length == 2 ? 0x1Fu : length == 3 ? 0x0Fu : 0x07u);
  for (std::size_t k = 1; k < length; ++k) code_point = (code_point << 6) | (byte(i + k) & 0x3Fu);
  return code_point;
}

inline void append_utf8(std::string& out, uint32_t code_point) {
  if (code_point < 0x80) {
    out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    out += static_cast<char>(0xC0 | (code_point >> 6));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    out += static_cast<char>(0xE0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code_point >> 18));
    out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  }
}

inline constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026

// At most `max_chars` code points of `text`; when it is longer, the first max_chars - 1 followed
// by an ellipsis (U+2026). Invalid bytes count as one character each and are kept as they are.
inline std::string excerpt(std::string_view text, std::size_t max_chars) {
  if (max_chars == 0) return {};
  std::size_t chars = 0;
  std::size_t cut = text.size();  // byte offset after max_chars - 1 characters
  std::size_t i = 0;
  while (i < text.size()) {
    if (chars == max_chars - 1) cut = i;
    if (chars == max_chars) return std::string(text.substr(0, cut)) + std::string(kEllipsis);
    const std::size_t length = utf8_sequence_length(text, i);
    i += length == 0 ? 1 : length;
    ++chars;
  }
  return std::string(text);
}

namespace detail {
inline bool is_blank_or_control(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte <= 0x20 || byte == 0x7F;
}
}  // namespace detail

// `text` on one line, at most `max_chars` code points (0: no limit): every run of whitespace and
// control characters (line breaks, tabs, escape sequences) becomes one space and spaces at the
// ends go; a longer result is cut as excerpt() cuts. The same as excerpt(one_line(text), max_chars),
// in one pass that reads no more of the text than the result needs.
inline std::string short_line(std::string_view text, std::size_t max_chars) {
  std::string out;
  out.reserve(max_chars == 0 ? text.size() : std::min(text.size(), max_chars * 4));
  std::size_t chars = 0;
  std::size_t cut = 0;  // the size of `out` after max_chars - 1 characters
  // Appends one character; false when it would be character max_chars + 1.
  auto emit = [&](const char* bytes, std::size_t size) {
    if (max_chars > 0) {
      if (chars == max_chars) return false;
      if (chars == max_chars - 1) cut = out.size();
    }
    out.append(bytes, size);
    ++chars;
    return true;
  };
  bool pending_space = false;
  std::size_t i = 0;
  while (i < text.size()) {
    if (detail::is_blank_or_control(text[i])) {
      pending_space = !out.empty();
      ++i;
      continue;
    }
    const std::size_t length = std::max<std::size_t>(1, utf8_sequence_length(text, i));
    if ((pending_space && !emit(" ", 1)) || !emit(text.data() + i, length)) {
      out.resize(cut);
      out += kEllipsis;
      return out;
    }
    pending_space = false;
    i += length;
  }
  return out;
}

// `text` on one line: every run of whitespace and control characters (line breaks, tabs, escape
// sequences) becomes one space, and spaces at the ends go. Nothing else changes.
inline std::string one_line(std::string_view text) { return short_line(text, 0); }

// The text a report shows for one section of an example (`inputs`, `expectedOutputs`,
// `actualOutputs`): the string form of its main member (`input` or `output`, then `query` for
// inputs) when it has one, else the compact JSON of the whole section; "" for a missing, null or
// empty section. A string shows its text; any other value its JSON as written, white space between
// tokens removed, so every number reads exactly as the example holds it.
inline std::string section_text(std::string_view section_json, std::string_view main_key) {
  const auto shown = [](std::string_view value) {
    return !value.empty() && value.front() == '"' ? krino::json::string_token_text(value) : krino::json::compact_text(value);
  };
  const std::size_t begin = section_json.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  const std::string_view section = section_json.substr(begin, section_json.find_last_not_of(" \t\r\n") + 1 - begin);
  if (section == "null") return {};
  if (section.front() != '{') return shown(section);
  bool empty = true;
  krino::json::for_each_member(section, [&](std::string_view, std::string_view) { return empty = false; });
  if (empty) return {};
  for (std::string_view key : {main_key, std::string_view(main_key == "input" ? "query" : "")}) {
    if (key.empty()) continue;
    const auto value = krino::json::find_member(section, key);
    if (value && *value != "null") return shown(*value);
  }
  return krino::json::compact_text(section);
}

// `value` with a fixed number of decimals ("0.75"); "-" for a value that is not finite.
inline std::string fixed(double value, int decimals) {
  if (!std::isfinite(value)) return "-";
  // A tiny negative that rounds to zero reads as zero, not "-0.00".
  if (std::fabs(value) < 0.5 * std::pow(10.0, -decimals)) value = 0.0;
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

// A rate in 0..1 as a percentage with one decimal: "91.0%".
inline std::string percent(double rate) { return fixed(rate * 100.0, 1) + "%"; }

// A count that may be a mean over runs (so fractional): "3", or "0.67" when it is not whole.
inline std::string count(double value) {
  if (!std::isfinite(value)) return "-";
  if (std::fabs(value - std::round(value)) < 5e-7) return fixed(std::round(value), 0);
  return fixed(value, 2);
}

// A duration in milliseconds for people: "850 ms", "1.52 s", "2 min 05 s".
inline std::string duration(double milliseconds) {
  if (!std::isfinite(milliseconds) || milliseconds < 0) return "-";
  if (milliseconds < 1000.0) return fixed(milliseconds, milliseconds < 10.0 ? 1 : 0) + " ms";
  const double seconds = milliseconds / 1000.0;
  if (seconds < 60.0) return fixed(seconds, 2) + " s";
  const auto whole = static_cast<uint64_t>(std::llround(seconds));
  char buffer[64];
  if (whole < 3600) {
    std::snprintf(buffer, sizeof buffer, "%llu min %02llu s", static_cast<unsigned long long>(whole / 60),
                  static_cast<unsigned long long>(whole % 60));
  } else {
    std::snprintf(buffer, sizeof buffer, "%llu h %02llu min", static_cast<unsigned long long>(whole / 3600),
                  static_cast<unsigned long long>((whole % 3600) / 60));
  }
  return buffer;
}

}  // namespace krino::report

#endif  // KRINO_REPORT_TEXT_HPP
