#pragma once
// A plugin evaluator called in this process through its vtable.
//
// A THREAD_SAFE component gets one instance shared by every worker. Otherwise the host creates
// one instance per worker thread up front (create runs on the main thread) and lends them out, so
// no instance is ever called from two threads at once.
//
// With a timeout (timeout_ms), each call runs on a thread of its own while the worker waits for
// it until the deadline, which the plugin also gets as deadline_unix_ms. A call past it becomes an
// item error and is abandoned, not stopped (nothing can stop code in this process safely): its
// thread and its instance stay busy until the plugin returns, the library is never unloaded, and
// once as many calls are abandoned as there are instances the evaluator fails items at once.
// isolation: process is the way to have a hung evaluator killed.
#include "krino/core/plugin/component.hpp"
#include "krino/core/runner/evaluator_backend.hpp"

#include <boost/json/object.hpp>
#include <tbb/concurrent_queue.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

namespace krino::core {

class InProcessEvaluator : public EvaluatorBackend {
 public:
  // `options` must already be validated against the component's schema. Throws a configuration
  // error when the plugin refuses them. `name` is the evaluator's display name, for errors.
  InProcessEvaluator(const Component& component, const krino_host* host, std::string name,
                     const boost::json::object& options, size_t workers,
                     std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  ~InProcessEvaluator() override;
  InProcessEvaluator(const InProcessEvaluator&) = delete;
  InProcessEvaluator& operator=(const InProcessEvaluator&) = delete;

  StatusOr<WrittenResult, ItemError> evaluate(const krino_call_context& ctx, std::string_view testcase) const override;

 private:
  // The instances and what a call running on its own thread needs after its caller stopped
  // waiting (it may outlive the evaluator).
  struct Instances {
    krino_evaluator_vtable vtable{};
    std::vector<void*> all;
    tbb::concurrent_bounded_queue<void*> idle;
    bool shared = false;
    std::atomic<size_t> abandoned{0};  // calls past their timeout still running
    void* acquire();
    void release(void* instance);
  };
  StatusOr<WrittenResult, ItemError> evaluate_with_timeout(const krino_call_context& ctx, std::string_view testcase) const;
  ItemError failure(krino_status status, const std::string& message) const;

  const Component& component_;
  std::string name_;
  std::shared_ptr<Instances> instances_;
  std::optional<std::chrono::milliseconds> timeout_;
};

}  // namespace krino::core
