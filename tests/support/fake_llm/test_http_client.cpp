#include "test_http_client.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/json.hpp>

namespace krino::fake_llm::test {
namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
namespace json = boost::json;

TestHttpClient::TestHttpClient(std::uint16_t port) : stream_(io_) {
  stream_.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
}

// Asynchronous operations run to completion on a private io_context: the only way to get a
// deadline (tcp_stream's expiry) on what is, for the caller, a blocking call.
HttpResult TestHttpClient::send(const HttpCall& call) {
  http::request<http::string_body> request{http::string_to_verb(call.method), call.target, 11};
  request.set(http::field::host, "127.0.0.1");
  request.set(http::field::content_type, "application/json");
  for (const auto& [name, value] : call.headers) request.set(name, value);
  request.body() = call.body;
  request.keep_alive(true);
  request.prepare_payload();

  HttpResult result;
  stream_.expires_after(call.deadline);
  http::async_write(stream_, request, [&](beast::error_code ec, std::size_t) {
    if (ec) {
      result.error = ec;
      return;
    }
    http::async_read(stream_, buffer_, result.response, [&](beast::error_code read_ec, std::size_t) { result.error = read_ec; });
  });
  io_.restart();
  io_.run();
  return result;
}

HttpResult http_call(std::uint16_t port, const HttpCall& call) { return TestHttpClient(port).send(call); }

HttpResult http_get(std::uint16_t port, const std::string& target) {
  HttpCall call;
  call.method = "GET";
  call.target = target;
  return http_call(port, call);
}

std::string openai_body(const std::string& model, const std::string& user_text) {
  return json::serialize(json::object{
      {"model", model}, {"messages", json::array{json::object{{"role", "user"}, {"content", user_text}}}}});
}

std::string anthropic_body(const std::string& model, const std::string& system, const std::string& user_text) {
  // Content as blocks, as the Anthropic SDKs send it, so the server's block handling is exercised.
  json::array content{json::object{{"type", "text"}, {"text", user_text}}};
  return json::serialize(json::object{{"model", model},
                                      {"max_tokens", 256},
                                      {"system", system},
                                      {"messages", json::array{json::object{{"role", "user"}, {"content", content}}}}});
}

}  // namespace krino::fake_llm::test
