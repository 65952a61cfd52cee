#include "krino/core/http_server/http_server.hpp"

#include "krino/core/common/error.hpp"
#include "server_session.hpp"
#include "server_state.hpp"

#include <boost/asio/ip/address.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>

#include <vector>

namespace krino::core::http_server {

namespace net = boost::asio;
using net::ip::tcp;

namespace {

void accept_next(const std::shared_ptr<HttpServer::State>& state) {
  state->acceptor.async_accept(net::make_strand(state->io), [state](boost::system::error_code ec, tcp::socket socket) {
    if (!state->acceptor.is_open()) return;  // stopped
    if (!ec) {
      socket.set_option(tcp::no_delay(true), ec);
      auto session = std::make_shared<ServerSession>(std::move(socket), state);
      {
        const std::lock_guard<std::mutex> lock(state->mutex);
        state->sessions.emplace(session.get(), session);
      }
      session->start();
    }
    // On an error (most often out of file descriptors) the next accept simply tries again; the
    // failed connection was never ours.
    accept_next(state);
  });
}

}  // namespace

void HttpServer::State::forget(ServerSession* session) {
  std::function<void()> finished;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (sessions.erase(session) == 0) return;
    if (stopping && sessions.empty()) finished = std::exchange(done, nullptr);
  }
  if (finished) net::post(io, std::move(finished));
}

HttpServer::HttpServer(net::io_context& io, HttpServerOptions options, const Router& router, AccessLog access_log)
    : state_(std::make_shared<State>(io, std::move(options), router, std::move(access_log))) {}

HttpServer::~HttpServer() {
  boost::system::error_code ec;
  state_->acceptor.close(ec);
}

void HttpServer::start() {
  const std::string where = state_->options.host + ":" + std::to_string(state_->options.port);
  boost::system::error_code ec;
  const auto address = net::ip::make_address(state_->options.host, ec);
  if (ec) throw usage_error("cannot listen on " + where + ": '" + state_->options.host + "' is not an IP address");
  const tcp::endpoint endpoint(address, state_->options.port);
  state_->acceptor.open(endpoint.protocol(), ec);
  if (!ec) state_->acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) state_->acceptor.bind(endpoint, ec);
  if (!ec) state_->acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) throw runtime_error("cannot listen on " + where + ": " + ec.message());
  accept_next(state_);
}

unsigned short HttpServer::port() const {
  boost::system::error_code ec;
  return state_->acceptor.local_endpoint(ec).port();
}

std::size_t HttpServer::pending_handlers() const { return state_->handlers_pending.load(); }

void HttpServer::stop(std::function<void()> done) {
  std::vector<std::shared_ptr<ServerSession>> open;
  bool finished = false;
  {
    const std::lock_guard<std::mutex> lock(state_->mutex);
    state_->stopping = true;
    state_->done = std::move(done);
    for (auto& [pointer, weak] : state_->sessions)
      if (auto session = weak.lock()) open.push_back(std::move(session));
    finished = state_->sessions.empty();
  }
  net::post(state_->io, [state = state_] {
    boost::system::error_code ec;
    state->acceptor.close(ec);
  });
  for (auto& session : open) session->request_stop();
  if (finished) {
    std::function<void()> callback;
    {
      const std::lock_guard<std::mutex> lock(state_->mutex);
      callback = std::exchange(state_->done, nullptr);
    }
    if (callback) net::post(state_->io, std::move(callback));
  }
}

}  // namespace krino::core::http_server
