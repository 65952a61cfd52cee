#pragma once
// The results server's HTTP/1.1 listener (Beast): keep-alive connections, each on its own strand;
// limits on header and body size and on the time a client may take to send a request; an access
// record per response; and a graceful stop that lets requests in progress finish.
//
// Threading: handlers run on the io_context's threads, one request per connection at a time.
// start() and stop() may be called from any thread.
#include "krino/core/http_server/router.hpp"

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace krino::core::http_server {

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  unsigned short port = 8080;  // 0: any free port (see HttpServer::port)
  std::uint64_t max_body_bytes = 64ull * 1024 * 1024;
  std::uint32_t max_header_bytes = 64 * 1024;
  std::chrono::milliseconds request_timeout{30'000};  // from a request's first byte to its last
  std::chrono::milliseconds idle_timeout{75'000};     // a kept-alive connection with no request
  // Handlers run on these threads, never on the I/O threads: one that waits on the database or
  // computes for seconds (a comparison of a long run) then holds up no other connection.
  std::size_t handler_threads = 4;
};

// What the access log records of one response (never a header or a body: they may hold keys).
struct AccessRecord {
  std::string remote;  // "127.0.0.1:50312"
  std::string method;
  std::string path;
  unsigned status = 0;
  std::uint64_t request_bytes = 0;
  std::uint64_t response_bytes = 0;
  std::chrono::microseconds duration{0};
};

class HttpServer {
 public:
  using AccessLog = std::function<void(const AccessRecord&)>;

  // `router` must outlive the server.
  HttpServer(boost::asio::io_context& io, HttpServerOptions options, const Router& router, AccessLog access_log = {});
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and listens; throws KrinoError naming the address when it cannot.
  void start();
  // The port listened on (the one the system chose when the options said 0).
  unsigned short port() const;
  // Requests whose handler is running or waiting for a handler thread: the server's queue depth.
  std::size_t pending_handlers() const;

  // Stops accepting; closes connections waiting for a request; lets each request being read or
  // handled finish and answers it with `Connection: close`; then calls `done` (on an I/O thread).
  void stop(std::function<void()> done);

  struct State;  // shared with the connections

 private:
  std::shared_ptr<State> state_;
};

}  // namespace krino::core::http_server
