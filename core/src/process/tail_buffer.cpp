#include "krino/core/process/tail_buffer.hpp"

namespace krino::core {

void TailBuffer::append(std::string_view bytes) {
  total_ += bytes.size();
  if (capacity_ == 0) return;
  if (bytes.size() >= capacity_) {
    bytes_.assign(bytes.substr(bytes.size() - capacity_));
    return;
  }
  if (bytes_.size() + bytes.size() > 2 * capacity_) bytes_.erase(0, bytes_.size() - capacity_);
  bytes_.append(bytes);
}

void TailBuffer::clear() noexcept {
  bytes_.clear();
  total_ = 0;
}

std::string_view TailBuffer::tail() const noexcept {
  std::string_view all(bytes_);
  return all.size() > capacity_ ? all.substr(all.size() - capacity_) : all;
}

}  // namespace krino::core
