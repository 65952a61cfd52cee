#pragma once
// What every request of one HttpClient shares; held by shared_ptr so requests still in flight keep
// it (the TLS context above all) alive after the client is gone. Internal to the HTTP client.
#include "connection_pool.hpp"

#include "krino/core/net/http_client.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>

namespace krino::core::http_detail {

// TLS 1.2 or later, peer verification on, the system's trusted roots plus `extra_ca_pem`.
// Throws std::invalid_argument when extra_ca_pem is given but unreadable.
boost::asio::ssl::context make_tls_context(const std::string& extra_ca_pem);

struct ClientState {
  ClientState(boost::asio::io_context& io_context, HttpClientOptions client_options)
      : io(io_context), options(std::move(client_options)), pool(options.max_idle_per_origin, options.max_idle_time) {
    // An unreadable extra_ca_pem is refused when the client is made, not at its first HTTPS call.
    if (!options.extra_ca_pem.empty()) tls();
  }

  // [thread-safe] The TLS context, made at the first HTTPS connection. Loading the system's trusted
  // roots costs some 240 million instructions, most of a short run's start-up: a run that calls
  // nothing over HTTPS (a replay, a local model, plain HTTP) never pays for it.
  boost::asio::ssl::context& tls() {
    std::call_once(tls_made_, [this] {
      tls_.emplace(make_tls_context(options.extra_ca_pem));
      tls_ready.store(true, std::memory_order_release);
    });
    return *tls_;
  }

  boost::asio::io_context& io;
  const HttpClientOptions options;
  ConnectionPool pool;
  std::atomic<std::uint64_t> connections_opened{0};
  std::atomic<bool> tls_ready{false};

 private:
  std::once_flag tls_made_;
  std::optional<boost::asio::ssl::context> tls_;
};

}  // namespace krino::core::http_detail
