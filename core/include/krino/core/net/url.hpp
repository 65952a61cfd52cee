#pragma once
// An absolute http:// or https:// URL split into what a connection needs: which origin to connect
// to (scheme, host, port) and which target to ask for. Judges are configured with a base URL
// ("https://api.openai.com/v1"); the provider appends its endpoint path to it.
#include <cstdint>
#include <string>
#include <string_view>

namespace krino::core {

struct Url {
  std::string scheme;  // "http" or "https", lower case
  std::string host;    // a name or an IP literal; IPv6 without the brackets
  std::uint16_t port = 0;
  std::string target = "/";  // path and query, always starting with '/'

  bool is_tls() const { return scheme == "https"; }
  // "https://host:port": what keep-alive connections are pooled by.
  std::string origin() const;
  // This URL with `path` appended to its path: {"https://h/v1"} + "/messages" -> "https://h/v1/messages".
  Url with_path(std::string_view path) const;
};

// Throws std::invalid_argument saying what is wrong. User info ("user:pass@") is refused so that no
// credential can ride in a URL that error messages may quote; keys belong in environment variables.
Url parse_url(std::string_view text);

}  // namespace krino::core
