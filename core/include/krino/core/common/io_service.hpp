#pragma once
// The run's asynchronous I/O: one Asio io_context and the few threads that run it. Tasks that talk
// to a system under test (HTTP requests, a child process's pipes) start their operations here and
// suspend the calling TBB task until the operation completes (await_callback), so a thousand items
// waiting on the network or on child processes hold no scheduler thread.
//
// The service's threads block SIGPIPE, so writes to pipes must start on them (post to a strand
// first): Asio may write at once in the thread that starts an operation.
//
// Threading: context() is [thread-safe]; handlers run on the service's threads. Destruction stops
// the context and joins the threads, so it must come after every operation has completed.
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <thread>
#include <vector>

namespace krino::core {

class IoService {
 public:
  // `threads` >= 1. One thread multiplexes thousands of sockets and pipes; more help only when
  // handlers themselves do real work (TLS, parsing large bodies).
  explicit IoService(int threads = 1);
  ~IoService();
  IoService(const IoService&) = delete;
  IoService& operator=(const IoService&) = delete;

  boost::asio::io_context& context() noexcept { return context_; }

 private:
  boost::asio::io_context context_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::vector<std::thread> threads_;
};

}  // namespace krino::core
