#include "row_spool.hpp"

#include <algorithm>

namespace krino::csv {
namespace {

// Each row is stored after its size in bytes, as 16 hexadecimal digits.
constexpr std::size_t kHeaderSize = 16;

}  // namespace

void RowSpool::add(std::string_view row) {
  static constexpr char digits[] = "0123456789abcdef";
  char header[kHeaderSize];
  uint64_t size = row.size();
  for (std::size_t i = kHeaderSize; i-- > 0;) {
    header[i] = digits[size & 0xF];
    size >>= 4;
  }
  spool_.write(std::string_view(header, kHeaderSize));
  spool_.write(row);
  ++rows_;
}

void RowSpool::drain(std::string_view suffix, const std::function<void(std::string_view)>& sink) {
  std::string header;
  uint64_t remaining = 0;  // bytes of the current row still to come
  bool in_row = false;
  spool_.read_all([&](std::string_view chunk) {
    while (!chunk.empty()) {
      if (!in_row) {
        const std::size_t take = std::min(kHeaderSize - header.size(), chunk.size());
        header.append(chunk.data(), take);
        chunk.remove_prefix(take);
        if (header.size() < kHeaderSize) return;
        remaining = 0;
        for (char c : header) remaining = (remaining << 4) | static_cast<uint64_t>(c <= '9' ? c - '0' : c - 'a' + 10);
        header.clear();
        in_row = true;
      }
      const auto take = static_cast<std::size_t>(std::min<uint64_t>(remaining, chunk.size()));
      if (take > 0) sink(chunk.substr(0, take));
      chunk.remove_prefix(take);
      remaining -= take;
      if (remaining == 0) {
        sink(suffix);
        in_row = false;
      }
    }
  });
  spool_.clear();
  rows_ = 0;
}

}  // namespace krino::csv
