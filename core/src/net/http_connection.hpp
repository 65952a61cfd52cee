#pragma once
// One kept-alive connection to one origin, plain or TLS, with the strand its operations run on.
// Internal to the HTTP client.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <chrono>
#include <string>
#include <variant>

namespace krino::core::http_detail {

class Connection {
 public:
  using PlainStream = boost::beast::tcp_stream;
  using TlsStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;

  // `tls` is null for plain HTTP.
  Connection(const boost::asio::any_io_executor& strand, boost::asio::ssl::context* tls, std::string origin);

  const std::string& origin() const { return origin_; }
  boost::asio::any_io_executor executor() { return socket().get_executor(); }
  boost::asio::ip::tcp::socket& socket();
  PlainStream& transport();  // the TCP layer, under TLS if any
  TlsStream* tls() { return std::get_if<TlsStream>(&stream_); }
  boost::beast::flat_buffer& buffer() { return buffer_; }

  // Calls f(stream) with the outermost stream, so one piece of code drives both kinds.
  template <class F>
  decltype(auto) visit(F&& f) {
    return std::visit(std::forward<F>(f), stream_);
  }

  void mark_idle() { idle_since_ = std::chrono::steady_clock::now(); }
  // True when the connection has been idle for less than `max_idle` and the peer has neither closed
  // it nor sent anything unasked (which would be a close_notify or garbage).
  bool still_usable(std::chrono::seconds max_idle);
  void close() noexcept;

 private:
  std::string origin_;
  std::variant<PlainStream, TlsStream> stream_;
  boost::beast::flat_buffer buffer_;
  std::chrono::steady_clock::time_point idle_since_;
};

}  // namespace krino::core::http_detail
