#include "json_path.h"

#include <boost/json/serialize.hpp>

namespace krino::text {

namespace {

bool is_identifier(std::string_view key) {
  if (key.empty()) return false;
  for (std::size_t i = 0; i < key.size(); ++i) {
    const char c = key[i];
    const bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    const bool digit = c >= '0' && c <= '9';
    if (!letter && !(digit && i > 0)) return false;
  }
  return true;
}

}  // namespace

std::string JsonPath::str() const {
  std::string out = "$";
  for (const Segment& segment : segments_) {
    if (segment.is_index) {
      out += "[" + std::to_string(segment.index) + "]";
    } else if (is_identifier(segment.key)) {
      out += ".";
      out += segment.key;
    } else {
      out += "[" + boost::json::serialize(boost::json::string_view(segment.key.data(), segment.key.size())) + "]";
    }
  }
  return out;
}

}  // namespace krino::text
