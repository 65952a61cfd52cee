#include "krino/core/common/io_service.hpp"

#include <algorithm>

#include <csignal>
#include <pthread.h>

namespace krino::core {

IoService::IoService(int threads) : work_(context_.get_executor()) {
  const int count = std::max(1, threads);
  threads_.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    threads_.emplace_back([this] {
      // A write into a pipe whose reader is gone (a child process that exited without reading its
      // stdin) raises SIGPIPE in the writing thread, which would end krino. Blocked here, it is
      // the EPIPE error the handler expects; sockets are not affected (Asio sends with MSG_NOSIGNAL).
      sigset_t pipe_signal;
      sigemptyset(&pipe_signal);
      sigaddset(&pipe_signal, SIGPIPE);
      pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
      context_.run();
    });
  }
}

IoService::~IoService() {
  work_.reset();
  context_.stop();
  for (auto& thread : threads_) thread.join();
}

}  // namespace krino::core
