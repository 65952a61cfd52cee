#pragma once
// Idle keep-alive connections, by origin. Internal to the HTTP client. [thread-safe]
#include "http_connection.hpp"

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace krino::core::http_detail {

class ConnectionPool {
 public:
  ConnectionPool(std::size_t max_idle_per_origin, std::chrono::seconds max_idle_time)
      : max_idle_per_origin_(max_idle_per_origin), max_idle_time_(max_idle_time) {}

  // The most recently used idle connection to `origin` that is still usable, or null. Stale ones
  // met on the way are closed.
  std::shared_ptr<Connection> acquire(const std::string& origin);
  // Keeps a connection whose last response allowed reuse, or closes it when the origin has enough.
  void release(std::shared_ptr<Connection> connection);
  void close_all();
  std::size_t idle() const;

 private:
  const std::size_t max_idle_per_origin_;
  const std::chrono::seconds max_idle_time_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::vector<std::shared_ptr<Connection>>> idle_;
};

}  // namespace krino::core::http_detail
