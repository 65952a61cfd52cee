#include "krino/core/net/http_client.hpp"

#include "client_state.hpp"
#include "http_exchange.hpp"

namespace krino::core {

HttpClient::HttpClient(boost::asio::io_context& io, HttpClientOptions options)
    : state_(std::make_shared<http_detail::ClientState>(io, std::move(options))) {}

HttpClient::~HttpClient() { state_->pool.close_all(); }

void HttpClient::send(HttpRequest request, std::chrono::milliseconds timeout, Callback done) {
  auto exchange = std::make_shared<http_detail::HttpExchange>(state_, std::move(request), timeout, std::move(done));
  exchange->start();
}

void HttpClient::post(const Url& url, std::vector<HttpHeader> headers, std::string body,
                      std::chrono::milliseconds timeout, Callback done) {
  send(HttpRequest{"POST", url, std::move(headers), std::move(body)}, timeout, std::move(done));
}

std::uint64_t HttpClient::connections_opened() const {
  return state_->connections_opened.load(std::memory_order_relaxed);
}

std::size_t HttpClient::idle_connections() const { return state_->pool.idle(); }

bool HttpClient::tls_ready() const { return state_->tls_ready.load(std::memory_order_acquire); }

}  // namespace krino::core
