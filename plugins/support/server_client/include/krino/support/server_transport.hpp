// How a plugin reaches krino serve (the server reporter, the dataset:// resolver): one request, one
// answer. The plugins talk to the host's client (krino.host.http/1) and tests talk to a scripted
// stand-in, so batching, retries and the spool are tested without sockets and without sleeping.
#ifndef KRINO_SERVER_SERVER_TRANSPORT_HPP
#define KRINO_SERVER_SERVER_TRANSPORT_HPP

#include <krino/host_http.h>
#include <krino/plugin.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace krino::server {

struct HttpReply {
  // KRINO_OK: the server answered (see status); DEADLINE_EXCEEDED, UNAVAILABLE: no answer.
  krino_status transport = KRINO_OK;
  int status = 0;
  std::string headers;  // "Name: value\n" lines
  std::string body;
  std::string error;  // without an answer: what happened

  bool answered() const { return transport == KRINO_OK; }
  // The first header of that name, compared case-insensitively.
  std::optional<std::string> header(std::string_view name) const;
};

using HeaderList = std::vector<std::pair<std::string, std::string>>;

class Transport {
 public:
  virtual ~Transport() = default;
  // [thread-safe] Blocks until the exchange ends.
  virtual HttpReply send(std::string_view method, const std::string& url, const HeaderList& headers,
                         std::string_view body, uint32_t timeout_ms) = 0;
};

// The host's HTTP client. Throws krino::Error (UNAVAILABLE) when the host lends none.
class HostTransport final : public Transport {
 public:
  explicit HostTransport(const krino_host* host);
  HttpReply send(std::string_view method, const std::string& url, const HeaderList& headers, std::string_view body,
                 uint32_t timeout_ms) override;

 private:
  const krino_host* host_;
  const krino_host_http* http_;
};

}  // namespace krino::server

#endif  // KRINO_SERVER_SERVER_TRANSPORT_HPP
