#include "http_session.hpp"

#include <boost/asio/write.hpp>
#include <sstream>

namespace krino::fake_llm {
namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using net::ip::tcp;

namespace {
// Judge prompts can be long, but a runaway client should not exhaust memory.
constexpr std::uint64_t body_limit = 64ull * 1024 * 1024;
}  // namespace

HttpSession::HttpSession(tcp::socket socket, std::shared_ptr<ServerState> state)
    : stream_(std::move(socket)), state_(std::move(state)), delay_(stream_.get_executor()) {}

void HttpSession::start() { read_request(); }

void HttpSession::read_request() {
  parser_.emplace();
  parser_->body_limit(body_limit);
  http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
  if (ec) return close();  // the client left (end_of_stream) or sent garbage
  plan_ = route(*state_, parser_->get());
  if (plan_.delay.count() == 0) return deliver();
  delay_.expires_after(plan_.delay);
  delay_.async_wait([self = shared_from_this()](beast::error_code wait_ec) {
    if (!wait_ec) self->deliver();
  });
}

void HttpSession::deliver() {
  switch (plan_.transport) {
    case FaultKind::timeout: return hang();
    case FaultKind::truncated: return send_truncated();
    case FaultKind::reset: return reset_connection();
    default: break;
  }
  http::async_write(stream_, plan_.response, beast::bind_front_handler(&HttpSession::on_write, shared_from_this()));
}

void HttpSession::on_write(beast::error_code ec, std::size_t) {
  if (ec || plan_.response.need_eof()) return close();
  read_request();
}

// Keep reading (and discarding) so the session notices when the client gives up and closes.
void HttpSession::hang() {
  stream_.async_read_some(net::buffer(drain_), [self = shared_from_this()](beast::error_code ec, std::size_t) {
    if (ec) return self->close();
    self->hang();
  });
}

// Written by hand because a correct serializer will not send a Content-Length it cannot honour.
void HttpSession::send_truncated() {
  const std::string& body = plan_.response.body();
  plan_.response.content_length(body.size() + 64);
  std::ostringstream header;
  header << plan_.response.base();
  raw_ = header.str() + body.substr(0, body.size() / 2);
  net::async_write(stream_, net::buffer(raw_), [self = shared_from_this()](beast::error_code, std::size_t) {
    self->close();
  });
}

// Linger 0 turns close() into a TCP RST, what clients see when a proxy or server crashes mid-call.
void HttpSession::reset_connection() {
  beast::error_code ec;
  stream_.socket().set_option(net::socket_base::linger(true, 0), ec);
  stream_.socket().close(ec);
}

void HttpSession::close() {
  beast::error_code ec;
  stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  stream_.socket().close(ec);
}

}  // namespace krino::fake_llm
