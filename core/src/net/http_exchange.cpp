#include "http_exchange.hpp"

#include "krino/core/version.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <iterator>
#include <stdexcept>

namespace krino::core::http_detail {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

bool is_ip_literal(const std::string& host) {
  boost::system::error_code error;
  asio::ip::make_address(host, error);
  return !error;
}

std::string host_header(const Url& url) {
  std::string host = url.host.find(':') != std::string::npos ? "[" + url.host + "]" : url.host;
  bool default_port = url.port == (url.is_tls() ? 443 : 80);
  return default_port ? host : host + ":" + std::to_string(url.port);
}

}  // namespace

HttpExchange::HttpExchange(std::shared_ptr<ClientState> state, HttpRequest request, std::chrono::milliseconds timeout,
                           HttpClient::Callback done)
    : state_(std::move(state)), url_(std::move(request.url)), timeout_(timeout), done_(std::move(done)) {
  const http::verb verb = http::string_to_verb(request.method);
  if (verb == http::verb::unknown) throw std::invalid_argument("unknown HTTP method '" + request.method + "'");
  request_.method(verb);
  request_.target(url_.target);
  request_.version(11);
  request_.set(http::field::host, host_header(url_));
  request_.set(http::field::user_agent, std::string("krino/") + kVersion);
  for (auto& header : request.headers) request_.set(header.name, header.value);
  request_.keep_alive(true);
  request_.body() = std::move(request.body);
  // A GET or HEAD without a body sends no Content-Length at all, as servers expect.
  if (!request_.body().empty() || (verb != http::verb::get && verb != http::verb::head)) request_.prepare_payload();
}

void HttpExchange::start() {
  connection_ = state_->pool.acquire(url_.origin());
  reused_ = connection_ != nullptr;
  strand_ = reused_ ? connection_->executor() : asio::make_strand(state_->io);
  deadline_.emplace(strand_);
  // Posted, never run inline: the caller's callback must not run inside post().
  asio::post(strand_, [self = shared_from_this()] {
    self->arm_deadline();
    if (self->connection_) self->write();
    else self->resolve();
  });
}

void HttpExchange::arm_deadline() {
  deadline_->expires_after(timeout_);
  deadline_->async_wait([self = shared_from_this()](const error_code& error) {
    if (error || self->finished_) return;
    self->timed_out_ = true;
    if (self->resolver_) self->resolver_->cancel();
    if (self->connection_) self->connection_->close();
  });
}

void HttpExchange::resolve() {
  resolver_.emplace(strand_);
  resolver_->async_resolve(url_.host, std::to_string(url_.port),
                           [self = shared_from_this()](const error_code& error, asio::ip::tcp::resolver::results_type results) {
                             if (error) return self->fail(error, "resolving " + self->url_.host);
                             self->connect(results);
                           });
}

void HttpExchange::connect(const asio::ip::tcp::resolver::results_type& endpoints) {
  connection_ = std::make_shared<Connection>(strand_, url_.is_tls() ? &state_->tls() : nullptr, url_.origin());
  state_->connections_opened.fetch_add(1, std::memory_order_relaxed);
  connection_->transport().async_connect(endpoints, [self = shared_from_this()](const error_code& error, const auto&) {
    if (error) return self->fail(error, "connecting to " + self->url_.origin());
    if (self->connection_->tls()) self->handshake();
    else self->write();
  });
}

void HttpExchange::handshake() {
  auto& stream = *connection_->tls();
  // SNI for virtual hosting (IP literals must not be sent as SNI), and the certificate must name
  // the host we meant: a valid chain for another name is still the wrong server.
  if (!is_ip_literal(url_.host) && SSL_set_tlsext_host_name(stream.native_handle(), url_.host.c_str()) != 1)
    return fail(error_code(static_cast<int>(::ERR_get_error()), asio::error::get_ssl_category()),
                "setting the TLS server name for " + url_.host);
  stream.set_verify_callback(asio::ssl::host_name_verification(url_.host));
  stream.async_handshake(asio::ssl::stream_base::client, [self = shared_from_this()](const error_code& error) {
    if (error) return self->fail(error, "TLS handshake with " + self->url_.origin());
    self->write();
  });
}

void HttpExchange::write() {
  connection_->visit([self = shared_from_this()](auto& stream) {
    http::async_write(stream, self->request_, [self](const error_code& error, std::size_t) {
      if (error) {
        if (self->reused_ && !self->timed_out_) return self->retry_on_new_connection();
        return self->fail(error, "sending the request to " + self->url_.origin());
      }
      self->read();
    });
  });
}

void HttpExchange::read() {
  parser_.emplace();
  parser_->body_limit(state_->options.max_response_bytes);
  parser_->header_limit(64 * 1024);
  if (request_.method() == http::verb::head) parser_->skip(true);  // a HEAD answer has headers only
  connection_->visit([self = shared_from_this()](auto& stream) {
    http::async_read(stream, self->connection_->buffer(), *self->parser_, [self](const error_code& error, std::size_t) {
      if (error) {
        bool closed_before_answering = (error == http::error::end_of_stream || error == asio::error::eof) &&
                                       !self->parser_->got_some();
        if (self->reused_ && closed_before_answering && !self->timed_out_) return self->retry_on_new_connection();
        return self->fail(error, "reading the response from " + self->url_.origin());
      }
      self->on_response();
    });
  });
}

void HttpExchange::on_response() {
  auto message = parser_->release();
  HttpResult result;
  result.outcome = HttpOutcome::response;
  result.response.status = message.result_int();
  result.response.headers.reserve(static_cast<std::size_t>(std::distance(message.begin(), message.end())));
  for (const auto& field : message) {
    result.response.headers.push_back({std::string(field.name_string()), std::string(field.value())});
  }
  result.response.body = std::move(message.body());
  if (message.keep_alive()) state_->pool.release(std::move(connection_));
  else connection_->close();
  connection_.reset();
  finish(std::move(result));
}

void HttpExchange::retry_on_new_connection() {
  connection_->close();
  connection_.reset();
  reused_ = false;
  resolve();
}

void HttpExchange::fail(const error_code& error, const std::string& during) {
  if (connection_) connection_->close();
  connection_.reset();
  HttpResult result;
  if (timed_out_) {
    result.outcome = HttpOutcome::timeout;
    result.error = "no complete response from " + url_.origin() + " within " + std::to_string(timeout_.count()) + " ms";
  } else {
    result.outcome = HttpOutcome::connection_error;
    result.error = during + " failed: " + error.message();
  }
  finish(std::move(result));
}

void HttpExchange::finish(HttpResult result) {
  if (finished_) return;
  finished_ = true;
  deadline_->cancel();
  auto done = std::move(done_);
  done(std::move(result));
}

}  // namespace krino::core::http_detail
