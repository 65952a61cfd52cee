#pragma once
// One configured evaluator: its instances and a checked call to evaluate().
//
// A THREAD_SAFE component gets one instance shared by every worker. Otherwise the host creates
// one instance per worker thread up front (create runs on the main thread) and lends them out, so
// no instance is ever called from two threads at once.
#include "krino/core/plugin/component.hpp"
#include "krino/core/runner/eval_result_check.hpp"
#include "krino/core/common/item_error.hpp"

#include <krino/plugin.h>

#include <boost/json/object.hpp>
#include <tbb/concurrent_queue.h>

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace krino::core {

class EvaluatorHandle {
 public:
  // `options` must already be validated against the component's schema. Throws a configuration
  // error when the plugin refuses them.
  EvaluatorHandle(const Component& component, const krino_host* host, std::string name,
                  const boost::json::object& options, size_t workers);
  ~EvaluatorHandle();
  EvaluatorHandle(const EvaluatorHandle&) = delete;
  EvaluatorHandle& operator=(const EvaluatorHandle&) = delete;

  const std::string& name() const { return name_; }
  const Component& component() const { return component_; }
  const std::optional<double>& threshold() const { return threshold_; }

  // The checked eval result (its "name" this evaluator's name), or why there is none.
  StatusOr<CheckedResult, ItemError> evaluate(const krino_call_context& ctx, std::string_view testcase) const;

 private:
  void* acquire() const;
  void release(void* instance) const;

  const Component& component_;
  std::string name_;
  std::optional<double> threshold_;
  std::vector<void*> instances_;
  mutable tbb::concurrent_bounded_queue<void*> idle_;
  bool shared_ = false;
};


}  // namespace krino::core
