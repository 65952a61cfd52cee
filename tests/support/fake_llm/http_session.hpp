#pragma once
// One accepted connection: reads requests (keep-alive), waits out the planned latency on a timer so
// slow replies never hold a thread, and carries out the plan, faults included.
#include <array>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <memory>
#include <optional>
#include <string>

#include "router.hpp"

namespace krino::fake_llm {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  // `socket` should be bound to a strand: all of this session's handlers then run one at a time.
  HttpSession(boost::asio::ip::tcp::socket socket, std::shared_ptr<ServerState> state);
  void start();

 private:
  void read_request();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void deliver();
  void on_write(boost::beast::error_code ec, std::size_t bytes);
  void hang();
  void send_truncated();
  void reset_connection();
  void close();

  boost::beast::tcp_stream stream_;
  std::shared_ptr<ServerState> state_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  boost::asio::steady_timer delay_;
  Plan plan_;
  std::string raw_;                 // bytes of a deliberately truncated response
  std::array<char, 1024> drain_{};  // sink for reads while hanging
};

}  // namespace krino::fake_llm
