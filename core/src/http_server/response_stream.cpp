#include "krino/core/http_server/response_stream.hpp"

namespace krino::core::http_server {

void ResponseStream::write(std::string data) {
  std::function<void()> wake;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (finished_ || closed_ || data.empty()) return;
    pending_.append(data);
    wake = wake_;
  }
  if (wake) wake();
}

void ResponseStream::finish() {
  std::function<void()> wake;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (finished_) return;
    finished_ = true;
    wake = wake_;
  }
  if (wake) wake();
}

bool ResponseStream::closed() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return closed_;
}

void ResponseStream::attach(std::function<void()> wake) {
  bool ready = false;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    wake_ = wake;
    ready = finished_ || !pending_.empty();
  }
  if (ready) wake();
}

void ResponseStream::detach() {
  const std::lock_guard<std::mutex> lock(mutex_);
  wake_ = nullptr;
}

bool ResponseStream::take(std::string& data) {
  const std::lock_guard<std::mutex> lock(mutex_);
  data.swap(pending_);
  pending_.clear();
  return finished_;
}

void ResponseStream::mark_closed() {
  const std::lock_guard<std::mutex> lock(mutex_);
  closed_ = true;
  pending_.clear();
  wake_ = nullptr;
}

}  // namespace krino::core::http_server
