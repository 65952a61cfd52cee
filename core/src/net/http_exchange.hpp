#pragma once
// One request/response on the HTTP client: take a pooled connection or open one (resolve, connect,
// TLS handshake with verification), write, read, hand the connection back, call back once. A single
// timer bounds the whole exchange; when it fires it closes the socket, which ends whatever operation
// is pending. Every step runs on the connection's strand. Internal to the HTTP client.
#include "client_state.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <memory>
#include <optional>

namespace krino::core::http_detail {

class HttpExchange : public std::enable_shared_from_this<HttpExchange> {
 public:
  // Throws std::invalid_argument for a method Beast does not know.
  HttpExchange(std::shared_ptr<ClientState> state, HttpRequest request, std::chrono::milliseconds timeout,
               HttpClient::Callback done);
  void start();

 private:
  using error_code = boost::system::error_code;

  void arm_deadline();
  void resolve();
  void connect(const boost::asio::ip::tcp::resolver::results_type& endpoints);
  void handshake();
  void write();
  void read();
  void on_response();
  // A reused connection the server had closed meanwhile: try once more on a new one.
  void retry_on_new_connection();
  void fail(const error_code& error, const std::string& during);
  void finish(HttpResult result);

  std::shared_ptr<ClientState> state_;
  Url url_;
  std::chrono::milliseconds timeout_;
  HttpClient::Callback done_;
  boost::beast::http::request<boost::beast::http::string_body> request_;

  boost::asio::any_io_executor strand_;
  std::optional<boost::asio::steady_timer> deadline_;
  std::optional<boost::asio::ip::tcp::resolver> resolver_;
  std::shared_ptr<Connection> connection_;
  std::optional<boost::beast::http::response_parser<boost::beast::http::string_body>> parser_;
  bool reused_ = false;
  bool timed_out_ = false;
  bool finished_ = false;
};

}  // namespace krino::core::http_detail
