#pragma once
// The last N bytes of a stream (a child's stderr): memory stays bounded however much the child
// writes, and an error message still shows how the stream ended.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace krino::core {

class TailBuffer {
 public:
  explicit TailBuffer(std::size_t capacity) : capacity_(capacity) {}

  void append(std::string_view bytes);
  void clear() noexcept;

  // The last capacity() bytes written (fewer when less was written).
  std::string_view tail() const noexcept;
  // Whether bytes were dropped from the front.
  bool truncated() const noexcept { return total_ > capacity_; }
  std::uint64_t total_bytes() const noexcept { return total_; }
  std::size_t capacity() const noexcept { return capacity_; }

 private:
  std::size_t capacity_;
  // Holds up to 2 * capacity_ bytes and drops its front half at once, so appends stay amortised O(1).
  std::string bytes_;
  std::uint64_t total_ = 0;
};

}  // namespace krino::core
