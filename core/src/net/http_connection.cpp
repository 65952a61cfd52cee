#include "http_connection.hpp"

#include <sys/socket.h>

#include <cerrno>

namespace krino::core::http_detail {
namespace {

std::variant<Connection::PlainStream, Connection::TlsStream> make_stream(const boost::asio::any_io_executor& strand,
                                                                         boost::asio::ssl::context* tls) {
  if (tls == nullptr) return std::variant<Connection::PlainStream, Connection::TlsStream>(std::in_place_index<0>, strand);
  return std::variant<Connection::PlainStream, Connection::TlsStream>(std::in_place_index<1>, strand, *tls);
}

}  // namespace

Connection::Connection(const boost::asio::any_io_executor& strand, boost::asio::ssl::context* tls, std::string origin)
    : origin_(std::move(origin)), stream_(make_stream(strand, tls)) {}

Connection::PlainStream& Connection::transport() {
  if (auto* plain = std::get_if<PlainStream>(&stream_)) return *plain;
  return std::get<TlsStream>(stream_).next_layer();
}

boost::asio::ip::tcp::socket& Connection::socket() { return transport().socket(); }

bool Connection::still_usable(std::chrono::seconds max_idle) {
  if (std::chrono::steady_clock::now() - idle_since_ > max_idle) return false;
  if (!socket().is_open()) return false;
  char byte = 0;
  ssize_t got = ::recv(socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  return got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

void Connection::close() noexcept {
  boost::system::error_code ignored;
  socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
  socket().close(ignored);
}

}  // namespace krino::core::http_detail
