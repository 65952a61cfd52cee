#include "krino/core/net/url.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

namespace krino::core {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

[[noreturn]] void invalid(std::string_view text, std::string_view why) {
  throw std::invalid_argument("invalid URL '" + std::string(text) + "': " + std::string(why));
}

std::uint16_t parse_port(std::string_view text, std::string_view digits) {
  unsigned value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() || value == 0 || value > 65535)
    invalid(text, "the port must be a number from 1 to 65535");
  return static_cast<std::uint16_t>(value);
}

}  // namespace

std::string Url::origin() const {
  bool v6 = host.find(':') != std::string::npos;
  return scheme + "://" + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

Url Url::with_path(std::string_view path) const {
  Url joined = *this;
  std::string_view base = target;
  while (!base.empty() && base.back() == '/') base.remove_suffix(1);
  while (!path.empty() && path.front() == '/') path.remove_prefix(1);
  joined.target = std::string(base) + "/" + std::string(path);
  return joined;
}

Url parse_url(std::string_view text) {
  Url url;
  auto scheme_end = text.find("://");
  if (scheme_end == std::string_view::npos) invalid(text, "expected http:// or https://");
  url.scheme = lower(text.substr(0, scheme_end));
  if (url.scheme != "http" && url.scheme != "https") invalid(text, "only http and https are supported");

  std::string_view rest = text.substr(scheme_end + 3);
  rest = rest.substr(0, rest.find('#'));  // a fragment never goes to the server
  auto authority_end = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, authority_end);
  std::string_view target = authority_end == std::string_view::npos ? std::string_view() : rest.substr(authority_end);
  if (authority.find('@') != std::string_view::npos)
    invalid(text, "credentials in the URL are not supported; put the key in an environment variable (api_key_env)");

  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    auto close = authority.find(']');
    if (close == std::string_view::npos) invalid(text, "unclosed '[' in the host");
    url.host = lower(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') invalid(text, "unexpected text after the IPv6 address");
      port = after.substr(1);
      if (port.empty()) invalid(text, "empty port");
    }
  } else {
    auto colon = authority.find(':');
    url.host = lower(authority.substr(0, colon));
    if (colon != std::string_view::npos) {
      port = authority.substr(colon + 1);
      if (port.empty()) invalid(text, "empty port");
    }
  }
  if (url.host.empty()) invalid(text, "no host");
  for (char c : url.host) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '%') invalid(text, "the host holds a character hosts cannot");
  }
  url.port = port.empty() ? (url.is_tls() ? 443 : 80) : parse_port(text, port);

  if (target.empty()) target = "/";
  for (char c : target) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) invalid(text, "spaces and control characters must be percent-encoded");
  }
  url.target = target.front() == '?' ? "/" + std::string(target) : std::string(target);
  return url;
}

}  // namespace krino::core
