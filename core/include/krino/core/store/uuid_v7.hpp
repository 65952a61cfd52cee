#pragma once
// Time-ordered ids for every row the results server stores (RFC 9562, version 7): 48 bits of Unix
// milliseconds, then a 12-bit counter and 62 random bits. Ids made later sort later, as text and as
// bytes, so a primary key doubles as the creation order that keyset pages walk, and inserts land
// at the end of the index instead of all over it (which random version 4 ids would do).
#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace krino::core::store {

using Uuid = std::array<std::uint8_t, 16>;

// The canonical text form: 36 lower-case characters, 8-4-4-4-12.
std::string to_text(const Uuid& id);

// The id `text` spells (either case, with hyphens in the canonical places), or nullopt.
std::optional<Uuid> parse_uuid(std::string_view text);

// Thread-safe. Within one millisecond the counter (RFC 9562 §6.2, method 1) keeps ids strictly
// increasing; when the clock steps back, the last timestamp is kept until the clock passes it, so
// order never goes backwards in one process.
class UuidV7Generator {
 public:
  Uuid next();
  // For tests: the id for a given clock reading.
  Uuid next_at(std::uint64_t unix_ms);

 private:
  std::mutex mutex_;
  std::uint64_t last_ms_ = 0;
  std::uint16_t counter_ = 0;  // 12 bits used
};

}  // namespace krino::core::store
