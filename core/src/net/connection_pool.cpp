#include "connection_pool.hpp"

namespace krino::core::http_detail {

std::shared_ptr<Connection> ConnectionPool::acquire(const std::string& origin) {
  std::vector<std::shared_ptr<Connection>> stale;
  std::shared_ptr<Connection> found;
  {
    std::lock_guard lock(mutex_);
    auto it = idle_.find(origin);
    while (it != idle_.end() && !it->second.empty()) {
      auto candidate = std::move(it->second.back());
      it->second.pop_back();
      if (candidate->still_usable(max_idle_time_)) {
        found = std::move(candidate);
        break;
      }
      stale.push_back(std::move(candidate));
    }
  }
  for (auto& connection : stale) connection->close();
  return found;
}

void ConnectionPool::release(std::shared_ptr<Connection> connection) {
  connection->mark_idle();
  {
    std::lock_guard lock(mutex_);
    auto& list = idle_[connection->origin()];
    if (list.size() < max_idle_per_origin_) {
      list.push_back(std::move(connection));
      return;
    }
  }
  connection->close();
}

void ConnectionPool::close_all() {
  std::unordered_map<std::string, std::vector<std::shared_ptr<Connection>>> all;
  {
    std::lock_guard lock(mutex_);
    all.swap(idle_);
  }
  for (auto& [origin, list] : all) {
    for (auto& connection : list) connection->close();
  }
}

std::size_t ConnectionPool::idle() const {
  std::lock_guard lock(mutex_);
  std::size_t count = 0;
  for (const auto& [origin, list] : idle_) count += list.size();
  return count;
}

}  // namespace krino::core::http_detail
