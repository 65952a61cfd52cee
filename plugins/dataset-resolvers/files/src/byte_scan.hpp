// Small memchr-based helpers for the cutters: they jump over long runs of ordinary bytes (string
// contents, CSV fields) instead of looking at every byte, which keeps the serial part of reading
// near memory speed.
#ifndef KRINO_FILES_BYTE_SCAN_HPP
#define KRINO_FILES_BYTE_SCAN_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string_view>

namespace krino::files {

// The UTF-8 byte order mark some editors write at the start of a file; every reader skips it.
inline constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

// Position of the first `c` in data[from, to), or `to`.
inline size_t find_byte(const char* data, size_t from, size_t to, char c) {
  const void* hit = std::memchr(data + from, c, to - from);
  return hit != nullptr ? static_cast<size_t>(static_cast<const char*>(hit) - data) : to;
}

// Number of '\n' in data[from, to).
inline uint64_t count_newlines(const char* data, size_t from, size_t to) {
  uint64_t count = 0;
  for (size_t at = find_byte(data, from, to, '\n'); at < to; at = find_byte(data, at + 1, to, '\n')) ++count;
  return count;
}

// Number of line breaks (CRLF, LF or CR) in data[from, to); a CRLF split at `from` is counted at
// its CR. data[from - 1] must be readable when from > 0.
inline uint64_t count_line_breaks(const char* data, size_t from, size_t to) {
  uint64_t count = 0;
  for (size_t at = find_byte(data, from, to, '\r'); at < to; at = find_byte(data, at + 1, to, '\r')) ++count;
  for (size_t at = find_byte(data, from, to, '\n'); at < to; at = find_byte(data, at + 1, to, '\n')) {
    if (at == 0 || data[at - 1] != '\r') ++count;
  }
  return count;
}

// A set of byte values, tested with one table load.
class ByteSet {
 public:
  ByteSet(std::initializer_list<char> members) {
    for (char c : members) table_[static_cast<unsigned char>(c)] = true;
  }
  bool contains(char c) const { return table_[static_cast<unsigned char>(c)]; }
  // Position of the first member in data[from, to), or `to`.
  size_t find_first(const char* data, size_t from, size_t to) const {
    while (from < to && !contains(data[from])) ++from;
    return from;
  }

 private:
  std::array<bool, 256> table_{};
};

}  // namespace krino::files

#endif  // KRINO_FILES_BYTE_SCAN_HPP
