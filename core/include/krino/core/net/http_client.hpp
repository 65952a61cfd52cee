#pragma once
// An asynchronous HTTP/1.1 client (Boost.Beast over the caller's io_context), shared by the judge
// service and the tasks that call a system under test: plain HTTP for local servers, HTTPS with
// certificate and host name verification for everything else. Connections are kept alive and reused
// per origin, so a run talking to one server pays for TCP and TLS set-up a handful of times, not once
// per call.
//
// Threading: post() is [thread-safe]. Everything else happens on the io_context's threads: each
// connection has its own strand, and the callback runs on it. The io_context must outlive every
// request in flight; the client itself may be destroyed while requests are in flight (they finish).
#include "krino/core/net/http_result.hpp"
#include "krino/core/net/url.hpp"

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace krino::core {

struct HttpClientOptions {
  // PEM certificates trusted in addition to the system's (a private CA, or a test's own server).
  std::string extra_ca_pem;
  // Idle connections kept per origin. Connections beyond it are closed when their request ends.
  std::size_t max_idle_per_origin = 32;
  // An idle connection older than this is not reused: servers close idle connections on their own
  // schedule, and a request written into a half-closed one is lost.
  std::chrono::seconds max_idle_time{30};
  std::size_t max_response_bytes = 16u << 20;
};

// One request. Host, Content-Length, Connection and User-Agent are set by the client; `headers`
// carries the rest.
struct HttpRequest {
  std::string method = "POST";  // any token Beast knows: GET, POST, PUT, PATCH, DELETE, HEAD, ...
  Url url;
  std::vector<HttpHeader> headers;
  std::string body;
};

namespace http_detail {
struct ClientState;
}

class HttpClient {
 public:
  // Must not throw: an exception would escape io_context::run().
  using Callback = std::function<void(HttpResult)>;

  // Throws std::invalid_argument when extra_ca_pem holds no readable certificate.
  explicit HttpClient(boost::asio::io_context& io, HttpClientOptions options = {});
  ~HttpClient();  // closes idle connections
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // [thread-safe] Sends `request`. `done` is called exactly once, on an io_context thread and never
  // from inside send(), with the response, or a timeout when no complete response arrived within
  // `timeout` (connecting included), or a connection error. Throws std::invalid_argument, before any
  // I/O, for a method Beast does not know.
  void send(HttpRequest request, std::chrono::milliseconds timeout, Callback done);

  // [thread-safe] send() with method POST.
  void post(const Url& url, std::vector<HttpHeader> headers, std::string body, std::chrono::milliseconds timeout,
            Callback done);

  // [thread-safe] Connections opened so far, and connections idle in the pool now: what tests and
  // diagnostics use to see that keep-alive works.
  std::uint64_t connections_opened() const;
  std::size_t idle_connections() const;
  // [thread-safe] Whether the TLS context exists: made at the first https:// connection (or at
  // once for extra_ca_pem), so a client that only speaks plain HTTP never loads the trusted roots.
  bool tls_ready() const;

 private:
  std::shared_ptr<http_detail::ClientState> state_;
};

}  // namespace krino::core
