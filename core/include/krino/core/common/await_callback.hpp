#pragma once
// Waiting for an asynchronous operation from code that must look blocking (a judge call, a task's
// HTTP request). Inside the TBB scheduler the calling task is suspended, so its thread goes back to
// other work while the operation is in flight and a thousand waits park no thread (oneTBB resumable
// tasks); outside it the calling thread simply waits.
#include "krino/core/common/thread_sanitizer.hpp"

#include <tbb/task.h>
#include <tbb/task_arena.h>

#include <future>
#include <utility>

namespace krino::core {

// `start(done)` begins the operation; `done(result)` must be called exactly once, from any thread,
// possibly before start() returns. Returns that result.
template <class Result, class Start>
Result await_callback(Start&& start) {
  Result result{};
  // Under a sanitizer the thread waits instead (kWaitsSuspendTasks says why).
  if (kWaitsSuspendTasks && tbb::this_task_arena::current_thread_index() != tbb::task_arena::not_initialized) {
    tbb::task::suspend([&](tbb::task::suspend_point point) {
      start([&result, point](Result r) {
        result = std::move(r);
        happens_before(&result);  // the resume orders it; ThreadSanitizer cannot see that
        tbb::task::resume(point);
      });
    });
    happens_after(&result);
    return result;
  }
  std::promise<Result> promise;
  std::future<Result> future = promise.get_future();
  start([&promise](Result r) { promise.set_value(std::move(r)); });
  return future.get();
}

}  // namespace krino::core
