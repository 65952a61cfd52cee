#pragma once
// One accepted connection of the HttpServer (internal).
#include "krino/core/http_server/http_server.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/serializer.hpp>

#include <chrono>
#include <memory>
#include <optional>

namespace krino::core::http_server {

class ServerSession : public std::enable_shared_from_this<ServerSession> {
 public:
  ServerSession(boost::asio::ip::tcp::socket socket, std::shared_ptr<HttpServer::State> state);
  ~ServerSession();
  void start();
  // From HttpServer::stop, on any thread: close now when waiting for a request, else after the
  // response being prepared.
  void request_stop();

 private:
  void read_request();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void answer(Response response, std::uint64_t request_bytes);
  // A handler's head whose body comes from `stream`: the head, then each piece as a chunk.
  void answer_streamed(Response head, std::shared_ptr<ResponseStream> stream, std::uint64_t request_bytes);
  void write_streamed_body();
  void on_write(bool keep_alive, boost::beast::error_code ec, std::size_t bytes);
  void close();

  boost::beast::tcp_stream stream_;
  std::shared_ptr<HttpServer::State> state_;
  std::string remote_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  std::shared_ptr<Response> response_;  // alive until written
  // A streamed response (answer_streamed): the head's serializer, the body's source, the piece
  // being written, and whether the connection stays open after it.
  std::optional<boost::beast::http::response_serializer<boost::beast::http::string_body>> head_serializer_;
  std::shared_ptr<ResponseStream> streamed_;
  std::string chunk_;
  bool writing_chunk_ = false;
  bool streamed_keep_alive_ = false;
  bool streamed_chunked_ = true;  // false for an HTTP/1.0 client: the body ends with the connection
  AccessRecord record_;
  std::chrono::steady_clock::time_point started_;
  bool handling_ = false;  // between a request's first byte and its response written
  bool stopping_ = false;
};

}  // namespace krino::core::http_server
