#include "openjudge_argument_text.h"

#include <krino/json_parse.hpp>

namespace krino::agent::openjudge {

std::optional<boost::json::value> parse_argument_text(std::string_view text) {
  boost::system::error_code ec;
  boost::json::value value = krino::json::parse(text, ec);
  if (ec) return std::nullopt;
  return value;
}

}  // namespace krino::agent::openjudge
