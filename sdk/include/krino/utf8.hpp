// UTF-8 for text that goes into messages and events: where a cut may fall, and how arbitrary bytes
// (an HTTP body, a child's output, a plugin's error text) become valid UTF-8. Header-only, C++17.
//
// Every krino.event/1 line must be valid UTF-8, or the readers (reporters, gate, merge) refuse it.
// Text from outside is any bytes, and a byte-bounded cut can fall inside a character: the one way
// to shorten text for a message is excerpt() (or head()/tail() with repaired()), never substr().
#ifndef KRINO_UTF8_HPP
#define KRINO_UTF8_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace krino::utf8 {

inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";  // U+FFFD

namespace detail {

inline bool is_continuation(unsigned char byte) { return (byte & 0xC0u) == 0x80u; }

// The well-formed byte sequences of the Unicode standard (table 3-7): the range the second byte
// must fall in after `lead`, and how many bytes the sequence has (0: `lead` starts none).
struct LeadRule {
  std::size_t length;
  unsigned char second_low;
  unsigned char second_high;
};

inline LeadRule rule_for(unsigned char lead) {
  if (lead < 0x80) return {1, 0, 0};
  if (lead >= 0xC2 && lead <= 0xDF) return {2, 0x80, 0xBF};
  if (lead == 0xE0) return {3, 0xA0, 0xBF};  // no overlong forms
  if (lead == 0xED) return {3, 0x80, 0x9F};  // no surrogates
  if (lead >= 0xE1 && lead <= 0xEF) return {3, 0x80, 0xBF};
  if (lead == 0xF0) return {4, 0x90, 0xBF};  // no overlong forms
  if (lead == 0xF4) return {4, 0x80, 0x8F};  // nothing above U+10FFFF
  if (lead >= 0xF1 && lead <= 0xF3) return {4, 0x80, 0xBF};
  return {0, 0, 0};
}

// How many bytes from text[i] on belong to the sequence that starts there: its whole length when
// it is well formed (then *valid is true), else the maximal subpart of an ill-formed one (at least
// one byte), which is what one U+FFFD replaces in the practice the Unicode standard recommends.
inline std::size_t scan(std::string_view text, std::size_t i, bool* valid) {
  const LeadRule rule = rule_for(static_cast<unsigned char>(text[i]));
  *valid = false;
  if (rule.length == 0) return 1;
  std::size_t k = 1;
  for (; k < rule.length && i + k < text.size(); ++k) {
    const auto byte = static_cast<unsigned char>(text[i + k]);
    const bool fits = k == 1 ? (byte >= rule.second_low && byte <= rule.second_high) : is_continuation(byte);
    if (!fits) return k;
  }
  *valid = k == rule.length;
  return k;
}

}  // namespace detail

// The length in bytes of the well-formed UTF-8 sequence at text[i], or 0 when the bytes there are
// not one (a stray continuation byte, a cut sequence, an overlong form, a surrogate, a code point
// above U+10FFFF).
inline std::size_t sequence_length(std::string_view text, std::size_t i) {
  bool valid = false;
  const std::size_t length = detail::scan(text, i, &valid);
  return valid ? length : 0;
}

// True when `text` is well-formed UTF-8 throughout.
inline bool is_valid(std::string_view text) {
  // ASCII eight bytes at a time first: most text the host checks (reasons, names) is all ASCII.
  std::size_t ascii = 0;
  for (; ascii + 8 <= text.size(); ascii += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + ascii, 8);
    if ((word & 0x8080808080808080ULL) != 0) break;
  }
  for (std::size_t i = ascii; i < text.size();) {
    bool valid = false;
    i += detail::scan(text, i, &valid);
    if (!valid) return false;
  }
  return true;
}

// `bytes` as valid UTF-8: each ill-formed part becomes U+FFFD (one per maximal subpart, as Python's
// errors="replace" does); valid text comes back unchanged.
inline std::string repaired(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (std::size_t i = 0; i < bytes.size();) {
    bool valid = false;
    const std::size_t length = detail::scan(bytes, i, &valid);
    if (valid) out.append(bytes.data() + i, length);
    else out.append(kReplacementCharacter);
    i += length;
  }
  return out;
}

// The longest start of `text` of at most `max_bytes` that does not end inside a character.
inline std::string_view head(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t cut = max_bytes;
  // A cut before a continuation byte splits a sequence: back off to its lead (at most 3 bytes).
  for (int back = 0; back < 3 && cut > 0 && detail::is_continuation(static_cast<unsigned char>(text[cut])); ++back) --cut;
  return text.substr(0, cut);
}

// The longest end of `text` of at most `max_bytes` that does not begin inside a character.
inline std::string_view tail(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t start = text.size() - max_bytes;
  for (int ahead = 0; ahead < 3 && start < text.size() && detail::is_continuation(static_cast<unsigned char>(text[start])); ++ahead)
    ++start;
  return text.substr(start);
}

// The start of `bytes` for a message: at most `max_bytes` of them, cut on a character boundary,
// made valid UTF-8, and followed by `marker` when something was cut.
inline std::string excerpt(std::string_view bytes, std::size_t max_bytes, std::string_view marker = "...") {
  const std::string_view kept = head(bytes, max_bytes);
  std::string out = repaired(kept);
  if (kept.size() < bytes.size()) out.append(marker);
  return out;
}

}  // namespace krino::utf8

#endif  // KRINO_UTF8_HPP
