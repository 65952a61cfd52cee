#pragma once
// What the HttpServer and its connections share (internal).
#include "krino/core/http_server/http_server.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/thread_pool.hpp>

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>

namespace krino::core::http_server {

class ServerSession;

struct HttpServer::State {
  State(boost::asio::io_context& io_context, HttpServerOptions server_options, const Router& server_router, AccessLog log)
      : io(io_context),
        options(std::move(server_options)),
        router(server_router),
        access_log(std::move(log)),
        acceptor(io_context),
        handlers(std::max<std::size_t>(options.handler_threads, 1)) {}

  // Called by a session as it goes; the last one out after stop() calls `done`.
  void forget(ServerSession* session);
  bool is_stopping() {
    const std::lock_guard<std::mutex> lock(mutex);
    return stopping;
  }

  boost::asio::io_context& io;
  const HttpServerOptions options;
  const Router& router;
  const AccessLog access_log;
  boost::asio::ip::tcp::acceptor acceptor;
  // Where handlers run. Destroyed (joined) with the state, which the last connection or the server
  // releases on an I/O thread or the owner's, never on one of these threads (see ServerSession).
  boost::asio::thread_pool handlers;
  std::atomic<std::size_t> handlers_pending{0};  // posted to `handlers` and not done: running or queued

  std::mutex mutex;  // guards what follows
  std::map<ServerSession*, std::weak_ptr<ServerSession>> sessions;
  bool stopping = false;
  std::function<void()> done;  // set by stop(); called once
};

}  // namespace krino::core::http_server
