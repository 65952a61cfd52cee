#pragma once
// Reading ABI structs written by a plugin built against any minor version of plugin.h.
//
// A plugin's struct may be smaller (older header: the missing tail reads as zero) or larger (newer
// header: the unknown tail is ignored, never rejected). Arrays of structs are walked with the
// plugin's own element size, not ours.
#include <algorithm>
#include <cstdint>
#include <cstring>

namespace krino::core {

// The smallest struct_size we accept: the size field itself.
inline constexpr uint32_t kMinStructSize = sizeof(uint32_t);

// Copies the prefix of *source that both sides know into a zero-initialised T.
// Returns false when source is null or declares an impossible size.
template <class T>
bool read_abi_struct(const void* source, T& out) {
  out = T{};
  if (source == nullptr) return false;
  uint32_t size = 0;
  std::memcpy(&size, source, sizeof(size));
  if (size < kMinStructSize) return false;
  std::memcpy(static_cast<void*>(&out), source, std::min<size_t>(size, sizeof(T)));
  return true;
}

}  // namespace krino::core
