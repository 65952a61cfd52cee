#pragma once
// A small synchronous HTTP/1.1 client for the fake server's tests, with a deadline per call so a
// test of the timeout fault cannot hang. Not for use outside tests.
#include <boost/asio/io_context.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace krino::fake_llm::test {

struct HttpCall {
  std::string method = "POST";
  std::string target;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  std::chrono::milliseconds deadline{5000};
};

struct HttpResult {
  boost::beast::error_code error;  // set when no complete response arrived in time
  boost::beast::http::response<boost::beast::http::string_body> response;
  unsigned status() const { return response.result_int(); }
  const std::string& body() const { return response.body(); }
};

// One keep-alive connection; send() may be called repeatedly.
class TestHttpClient {
 public:
  explicit TestHttpClient(std::uint16_t port);  // connects; throws on failure
  HttpResult send(const HttpCall& call);

 private:
  boost::asio::io_context io_;
  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
};

// One call on a fresh connection.
HttpResult http_call(std::uint16_t port, const HttpCall& call);
HttpResult http_get(std::uint16_t port, const std::string& target);

// Minimal request bodies in each provider's shape.
std::string openai_body(const std::string& model, const std::string& user_text);
std::string anthropic_body(const std::string& model, const std::string& system, const std::string& user_text);

}  // namespace krino::fake_llm::test
