#include "server_session.hpp"

#include "server_state.hpp"

#include <boost/asio/post.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/write.hpp>

namespace krino::core::http_server {

namespace beast = boost::beast;
namespace http = beast::http;

namespace {

// The request target's path and query, decoded; nullopt when the target is not a path.
bool split_target(std::string_view target, Request& request) {
  const std::size_t question = target.find('?');
  std::optional<std::string> path = percent_decode(target.substr(0, question));
  if (!path || path->empty() || path->front() != '/') return false;
  request.path = std::move(*path);
  if (question == std::string_view::npos) return true;
  std::string_view query = target.substr(question + 1);
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const std::size_t equals = pair.find('=');
    std::string plus_as_space(pair);
    for (char& c : plus_as_space)
      if (c == '+') c = ' ';
    const std::string_view spaced(plus_as_space);
    auto name = percent_decode(spaced.substr(0, equals));
    auto value = percent_decode(equals == std::string_view::npos ? std::string_view() : spaced.substr(equals + 1));
    if (!name || !value) return false;
    if (!name->empty()) request.query[std::move(*name)] = std::move(*value);
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return true;
}

std::string endpoint_text(const boost::asio::ip::tcp::socket& socket) {
  boost::system::error_code ec;
  const auto endpoint = socket.remote_endpoint(ec);
  if (ec) return "unknown";
  return endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
}

}  // namespace

ServerSession::ServerSession(boost::asio::ip::tcp::socket socket, std::shared_ptr<HttpServer::State> state)
    : stream_(std::move(socket)), state_(std::move(state)) {
  remote_ = endpoint_text(stream_.socket());
}

// Also when the io_context is torn down with this connection's operations still pending.
ServerSession::~ServerSession() { state_->forget(this); }

void ServerSession::start() {
  boost::asio::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->read_request(); });
}

void ServerSession::request_stop() {
  boost::asio::post(stream_.get_executor(), [self = shared_from_this()] {
    self->stopping_ = true;
    if (!self->handling_) self->close();  // waiting for a request that has not begun
  });
}

// Two steps, so that a connection waiting for its next request can be told from one sending a
// request: the first byte is awaited under the idle timeout, the rest under the request timeout.
void ServerSession::read_request() {
  if (stopping_) return close();
  handling_ = false;
  if (buffer_.size() == 0) {
    stream_.expires_after(state_->options.idle_timeout);
    stream_.async_read_some(buffer_.prepare(4096), [self = shared_from_this()](beast::error_code ec, std::size_t bytes) {
      if (ec) return self->close();
      self->buffer_.commit(bytes);
      self->read_request();
    });
    return;
  }
  handling_ = true;
  started_ = std::chrono::steady_clock::now();
  parser_.emplace();
  parser_->header_limit(state_->options.max_header_bytes);
  parser_->body_limit(state_->options.max_body_bytes);
  stream_.expires_after(state_->options.request_timeout);
  http::async_read(stream_, buffer_, *parser_, [self = shared_from_this()](beast::error_code ec, std::size_t bytes) {
    self->on_read(ec, bytes);
  });
}

void ServerSession::on_read(beast::error_code ec, std::size_t bytes) {
  record_ = AccessRecord{};
  record_.remote = remote_;
  if (ec == http::error::body_limit)
    return answer(error_response(Status::payload_too_large, "body_too_large",
                                 "the request body is larger than the limit of " + std::to_string(state_->options.max_body_bytes) + " bytes"),
                  bytes);
  if (ec == http::error::header_limit)
    return answer(error_response(Status::request_header_fields_too_large, "headers_too_large",
                                 "the request headers are larger than the limit of " + std::to_string(state_->options.max_header_bytes) + " bytes"),
                  bytes);
  // A client that left, sent something that is not HTTP, or was too slow (the stream's timeout has
  // closed the socket already: there is no one to answer).
  if (ec) return close();

  const BeastRequest& message = parser_->get();
  Request request{message, {}, {}, {}};
  record_.method = std::string(message.method_string());
  if (!split_target(std::string_view(message.target().data(), message.target().size()), request)) {
    record_.path = std::string(message.target().substr(0, 200));
    Response response = error_response(Status::bad_request, "bad_target", "the request target is not a valid path");
    response.keep_alive(message.keep_alive());
    return answer(std::move(response), bytes);
  }
  record_.path = request.path;
  // On a handler thread; nothing else touches this connection meanwhile (it reads no more until it
  // has answered), so record_ is the handler's until the answer is posted back.
  ++state_->handlers_pending;
  boost::asio::post(state_->handlers, [self = shared_from_this(), request = std::move(request), bytes]() mutable {
    Response response;
    try {
      response = self->state_->router.dispatch(request);
    } catch (const std::exception& error) {
      // A handler's bug must not take the server down; the message stays in the server's log, the
      // client learns only that it failed (it may hold data of another request).
      response = error_response(Status::internal_server_error, "internal_error", "the server failed to answer; see its log");
      self->record_.path += " (handler threw: " + std::string(error.what()) + ")";
    }
    response.keep_alive(request.message.keep_alive());
    --self->state_->handlers_pending;
    // `self` moves on with the answer: the connection (and the state it holds) is never released on
    // a handler thread, whose pool the state owns.
    auto executor = self->stream_.get_executor();
    boost::asio::post(executor, [self = std::move(self), response = std::move(response), stream = std::move(request.streamed), bytes]() mutable {
      if (stream && response.result() == Status::ok)
        self->answer_streamed(std::move(response), std::move(stream), bytes);
      else
        self->answer(std::move(response), bytes);
    });
  });
}

void ServerSession::answer(Response response, std::uint64_t request_bytes) {
  const bool read_failed = !parser_ || !parser_->is_done();
  // After a limit or timeout the rest of the request is unread: the connection cannot be reused.
  // A stop that came while the handler ran is seen here, so this response already says so.
  const bool keep_alive = !read_failed && !stopping_ && !state_->is_stopping() && response.keep_alive();
  response.keep_alive(keep_alive);
  response.prepare_payload();
  record_.status = response.result_int();
  record_.request_bytes = request_bytes;
  record_.response_bytes = response.body().size();
  response_ = std::make_shared<Response>(std::move(response));
  stream_.expires_after(state_->options.request_timeout);
  http::async_write(stream_, *response_, [self = shared_from_this(), keep_alive](beast::error_code ec, std::size_t bytes) {
    self->on_write(keep_alive, ec, bytes);
  });
}

void ServerSession::answer_streamed(Response head, std::shared_ptr<ResponseStream> stream, std::uint64_t request_bytes) {
  // As answer() decides. An HTTP/1.0 client cannot read chunks: its body is sent as it is and ends
  // when the connection closes.
  streamed_chunked_ = parser_ && parser_->get().version() >= 11;
  streamed_keep_alive_ = streamed_chunked_ && !stopping_ && !state_->is_stopping() && head.keep_alive();
  head.keep_alive(streamed_keep_alive_);
  head.body().clear();
  if (streamed_chunked_) {
    head.chunked(true);
  } else {
    head.version(10);
  }
  record_.status = head.result_int();
  record_.request_bytes = request_bytes;
  record_.response_bytes = 0;
  response_ = std::make_shared<Response>(std::move(head));
  head_serializer_.emplace(*response_);
  streamed_ = std::move(stream);
  stream_.expires_after(state_->options.request_timeout);
  http::async_write_header(stream_, *head_serializer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
    if (ec) {
      self->streamed_->mark_closed();
      return self->on_write(false, ec, 0);
    }
    // The producer may be on any thread: each piece it writes wakes the connection on its strand.
    // While the body is open nothing else holds the connection (no operation is pending between
    // pieces): the wake does, until the end or a failure detaches it (a cycle broken then).
    self->streamed_->attach([self, executor = self->stream_.get_executor()] {
      boost::asio::post(executor, [self] { self->write_streamed_body(); });
    });
    self->write_streamed_body();
  });
}

// One piece at a time: what arrived while a piece was being written goes out next, as one chunk.
void ServerSession::write_streamed_body() {
  if (writing_chunk_ || !streamed_) return;
  const bool finished = streamed_->take(chunk_);
  if (chunk_.empty() && !finished) return;  // woken for nothing new; the next write wakes us again
  writing_chunk_ = true;
  record_.response_bytes += chunk_.size();
  stream_.expires_after(state_->options.request_timeout);  // a client that stops reading is dropped
  auto on_written = [self = shared_from_this(), finished](beast::error_code ec, std::size_t) {
    self->writing_chunk_ = false;
    if (ec || finished) {
      std::shared_ptr<ResponseStream> stream = std::move(self->streamed_);
      if (ec) stream->mark_closed();
      else stream->detach();
      self->head_serializer_.reset();
      return self->on_write(!ec && self->streamed_keep_alive_, ec, 0);
    }
    self->write_streamed_body();
  };
  if (!streamed_chunked_) {
    if (chunk_.empty()) return on_written(beast::error_code(), 0);  // the end: on_write closes
    return boost::asio::async_write(stream_, boost::asio::buffer(chunk_), std::move(on_written));
  }
  if (chunk_.empty()) return boost::asio::async_write(stream_, http::make_chunk_last(), std::move(on_written));
  if (!finished) return boost::asio::async_write(stream_, http::make_chunk(boost::asio::buffer(chunk_)), std::move(on_written));
  // The last piece and the end of the body in one write.
  boost::asio::async_write(stream_, http::make_chunk(boost::asio::buffer(chunk_)), [self = shared_from_this(), on_written = std::move(on_written)](beast::error_code ec, std::size_t bytes) mutable {
    if (ec) return on_written(ec, bytes);
    boost::asio::async_write(self->stream_, http::make_chunk_last(), std::move(on_written));
  });
}

void ServerSession::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  record_.duration = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started_);
  if (state_->access_log) state_->access_log(record_);
  response_.reset();
  handling_ = false;
  if (ec || !keep_alive) return close();
  read_request();
}

void ServerSession::close() {
  if (streamed_) std::exchange(streamed_, nullptr)->mark_closed();  // its producer's writes are dropped from now on
  beast::error_code ec;
  stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ec);
  stream_.socket().close(ec);
  state_->forget(this);
}

}  // namespace krino::core::http_server
