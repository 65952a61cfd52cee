#include "reason_text.h"

#include "unicode_text.h"

#include <krino/json_text.hpp>

#include <boost/json/serialize.hpp>

namespace krino::text {

namespace {

// The first `limit` code points of `text`, and how many code points were left out.
std::pair<std::string_view, std::size_t> cut_after(std::string_view text, std::size_t limit) {
  const std::size_t length = count_code_points(text);
  if (length <= limit) return {text, 0};
  std::size_t seen = 0;
  std::size_t cut = 0;
  for (; cut < text.size(); ++cut) {
    if ((static_cast<unsigned char>(text[cut]) & 0xC0U) != 0x80U) {
      if (seen == limit) break;
      ++seen;
    }
  }
  return {text.substr(0, cut), length - limit};
}

std::string omitted_marker(std::size_t omitted) {
  return omitted == 0 ? std::string() : "…(+" + std::to_string(omitted) + " chars)";
}

}  // namespace

std::string quoted(std::string_view text, std::size_t limit) {
  const auto [kept, omitted] = cut_after(text, limit);
  return boost::json::serialize(boost::json::string_view(kept.data(), kept.size())) + omitted_marker(omitted);
}

std::string shown(const boost::json::value& value, std::size_t limit) {
  if (value.is_string()) return quoted(value.get_string(), limit);
  return shown_json(json::to_compact_json(value), limit);
}

std::string shown_json(std::string_view compact_json, std::size_t limit) {
  const auto [kept, omitted] = cut_after(compact_json, limit);
  return std::string(kept) + omitted_marker(omitted);
}

std::string listed(const std::vector<std::string>& items, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < limit; ++i) {
    if (i > 0) out += ", ";
    out += items[i];
  }
  if (items.size() > limit) out += ", ... and " + std::to_string(items.size() - limit) + " more";
  return out;
}

}  // namespace krino::text
