#pragma once
// A plugin evaluator called in this process through its vtable.
//
// A THREAD_SAFE component gets one instance shared by every worker. Otherwise the host creates
// one instance per worker thread up front (create runs on the main thread) and lends them out, so
// no instance is ever called from two threads at once.
#include "krino/core/plugin/component.hpp"
#include "krino/core/runner/evaluator_backend.hpp"

#include <boost/json/object.hpp>
#include <tbb/concurrent_queue.h>

#include <vector>

namespace krino::core {

class InProcessEvaluator : public EvaluatorBackend {
 public:
  // `options` must already be validated against the component's schema. Throws a configuration
  // error when the plugin refuses them. `name` is the evaluator's display name, for errors.
  InProcessEvaluator(const Component& component, const krino_host* host, std::string name,
                     const boost::json::object& options, size_t workers);
  ~InProcessEvaluator() override;
  InProcessEvaluator(const InProcessEvaluator&) = delete;
  InProcessEvaluator& operator=(const InProcessEvaluator&) = delete;

  StatusOr<std::string, ItemError> evaluate(const krino_call_context& ctx, std::string_view testcase) const override;

 private:
  void* acquire() const;
  void release(void* instance) const;

  const Component& component_;
  std::string name_;
  std::vector<void*> instances_;
  mutable tbb::concurrent_bounded_queue<void*> idle_;
  bool shared_ = false;
};

}  // namespace krino::core
