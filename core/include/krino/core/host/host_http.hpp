#pragma once
// The host's HTTP client lent to plugins as the "krino.host.http/1" extension (sdk: krino/host_http.h):
// core's HttpClient on the command's I/O service behind a blocking call. Plugins that talk to a
// server (the `server` reporter) keep their protocol, batching and retries; TLS, keep-alive and the
// wire are core's, as DESIGN.md's layering asks.
//
// Threading: request() is [thread-safe] and blocks its caller until the exchange ends, so it must
// never be called on the I/O service's own threads. The io_context must outlive this object, and
// this object every plugin instance that may call it.
#include "krino/core/net/http_client.hpp"

#include <krino/host_http.h>

#include <boost/asio/io_context.hpp>

namespace krino::core {

class HostHttp {
 public:
  explicit HostHttp(boost::asio::io_context& io, HttpClientOptions options = {});
  HostHttp(const HostHttp&) = delete;
  HostHttp& operator=(const HostHttp&) = delete;

  // The extension table; its `request` finds this object through the host's HostServices.
  static const krino_host_http* table() noexcept;

  // One exchange, waited for. The outcome's kinds map to the statuses of krino/host_http.h.
  HttpResult request(HttpRequest request, std::chrono::milliseconds timeout);

 private:
  HttpClient client_;
};

}  // namespace krino::core
