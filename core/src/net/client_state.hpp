#pragma once
// What every request of one HttpClient shares; held by shared_ptr so requests still in flight keep
// it (the TLS context above all) alive after the client is gone. Internal to the HTTP client.
#include "connection_pool.hpp"

#include "krino/core/net/http_client.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>

#include <atomic>
#include <cstdint>

namespace krino::core::http_detail {

// TLS 1.2 or later, peer verification on, the system's trusted roots plus `extra_ca_pem`.
// Throws std::invalid_argument when extra_ca_pem is given but unreadable.
boost::asio::ssl::context make_tls_context(const std::string& extra_ca_pem);

struct ClientState {
  ClientState(boost::asio::io_context& io_context, HttpClientOptions client_options)
      : io(io_context),
        options(std::move(client_options)),
        tls(make_tls_context(options.extra_ca_pem)),
        pool(options.max_idle_per_origin, options.max_idle_time) {}

  boost::asio::io_context& io;
  const HttpClientOptions options;
  boost::asio::ssl::context tls;
  ConnectionPool pool;
  std::atomic<std::uint64_t> connections_opened{0};
};

}  // namespace krino::core::http_detail
