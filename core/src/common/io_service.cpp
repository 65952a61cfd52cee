#include "krino/core/common/io_service.hpp"

#include <algorithm>

namespace krino::core {

IoService::IoService(int threads) : work_(context_.get_executor()) {
  const int count = std::max(1, threads);
  threads_.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) threads_.emplace_back([this] { context_.run(); });
}

IoService::~IoService() {
  work_.reset();
  context_.stop();
  for (auto& thread : threads_) thread.join();
}

}  // namespace krino::core
