#pragma once
// A JSON value read as a count or an id: a whole number >= 0 as Boost.JSON parsed it (an int64 that
// is not negative, or a uint64), and nothing else. 1.0 and 1e3 are doubles and are refused: the
// documents krino reads these from write counts and ids as integers.
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>

namespace krino::core {

inline std::optional<std::uint64_t> json_whole_number(const boost::json::value* value) {
  if (value == nullptr) return std::nullopt;
  if (value->is_uint64()) return value->get_uint64();
  if (value->is_int64() && value->get_int64() >= 0) return static_cast<std::uint64_t>(value->get_int64());
  return std::nullopt;
}

}  // namespace krino::core
