#include "openjudge_argument_text.h"

#include <charconv>
#include <string>
#include <vector>

namespace krino::agent::openjudge {

namespace {

// The number tokens of valid JSON text, in document order (strings skipped).
std::vector<std::string_view> number_tokens(std::string_view text) {
  std::vector<std::string_view> tokens;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
      ++i;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const std::size_t start = i;
      while (i < text.size() && (text[i] == '-' || text[i] == '+' || text[i] == '.' || text[i] == 'e' ||
                                 text[i] == 'E' || (text[i] >= '0' && text[i] <= '9')))
        ++i;
      tokens.push_back(text.substr(start, i - start));
    } else {
      ++i;
    }
  }
  return tokens;
}

// Walks `value` in document order, re-reading each double from the next number token. Returns
// false when the tokens and the numbers do not line up (duplicate keys), leaving the rest alone.
bool reread_doubles(boost::json::value& value, const std::vector<std::string_view>& tokens, std::size_t& next) {
  switch (value.kind()) {
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
      return next++ < tokens.size();
    case boost::json::kind::double_: {
      if (next >= tokens.size()) return false;
      const std::string_view token = tokens[next++];
      double exact = 0.0;
      const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), exact);
      // Out of range (1e400) stays as Boost read it.
      if (ec == std::errc() && end == token.data() + token.size()) value = exact;
      return true;
    }
    case boost::json::kind::array:
      for (auto& item : value.get_array())
        if (!reread_doubles(item, tokens, next)) return false;
      return true;
    case boost::json::kind::object:
      for (auto& member : value.get_object())
        if (!reread_doubles(member.value(), tokens, next)) return false;
      return true;
    default:
      return true;
  }
}

}  // namespace

std::optional<boost::json::value> parse_argument_text(std::string_view text) {
  boost::system::error_code ec;
  boost::json::value value = boost::json::parse(text, ec);
  if (ec) return std::nullopt;
  const std::vector<std::string_view> tokens = number_tokens(text);
  std::size_t next = 0;
  boost::json::value reread = value;
  if (reread_doubles(reread, tokens, next) && next == tokens.size()) return reread;
  return value;
}

}  // namespace krino::agent::openjudge
