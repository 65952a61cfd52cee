#include "krino/core/store/uuid_v7.hpp"

#include "krino/core/common/error.hpp"

#include <openssl/rand.h>

#include <chrono>

namespace krino::core::store {

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";
constexpr std::uint16_t kCounterLimit = 0x0fff;

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool hyphen_at(std::size_t position) { return position == 8 || position == 13 || position == 18 || position == 23; }

std::uint64_t unix_now_ms() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
}

}  // namespace

std::string to_text(const Uuid& id) {
  std::string text;
  text.reserve(36);
  for (std::size_t i = 0; i < id.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text.push_back('-');
    text.push_back(kHexDigits[id[i] >> 4]);
    text.push_back(kHexDigits[id[i] & 0x0f]);
  }
  return text;
}

std::optional<Uuid> parse_uuid(std::string_view text) {
  if (text.size() != 36) return std::nullopt;
  Uuid id{};
  std::size_t byte = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (hyphen_at(i)) {
      if (text[i] != '-') return std::nullopt;
      ++i;
      continue;
    }
    const int high = hex_value(text[i]);
    const int low = hex_value(text[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    id[byte++] = static_cast<std::uint8_t>(high << 4 | low);
    i += 2;
  }
  return id;
}

Uuid UuidV7Generator::next() { return next_at(unix_now_ms()); }

Uuid UuidV7Generator::next_at(std::uint64_t unix_ms) {
  Uuid id{};
  if (RAND_bytes(id.data(), static_cast<int>(id.size())) != 1)
    throw runtime_error("cannot make an id: the system's random number source failed");
  std::uint64_t ms = 0;
  std::uint16_t counter = 0;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (unix_ms > last_ms_) {
      last_ms_ = unix_ms;
      // A random start in the lower half leaves room for many ids in the same millisecond.
      counter_ = static_cast<std::uint16_t>((id[6] << 8 | id[7]) & 0x07ff);
    } else if (counter_ < kCounterLimit) {
      ++counter_;
    } else {
      // 2,048 or more ids in one millisecond: borrow the next millisecond rather than repeat an id.
      ++last_ms_;
      counter_ = 0;
    }
    ms = last_ms_;
    counter = counter_;
  }
  for (int i = 0; i < 6; ++i) id[i] = static_cast<std::uint8_t>(ms >> (40 - 8 * i));
  id[6] = static_cast<std::uint8_t>(0x70 | (counter >> 8));
  id[7] = static_cast<std::uint8_t>(counter & 0xff);
  id[8] = static_cast<std::uint8_t>(0x80 | (id[8] & 0x3f));  // the RFC 9562 variant
  return id;
}

}  // namespace krino::core::store
