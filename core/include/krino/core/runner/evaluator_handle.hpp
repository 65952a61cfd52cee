#pragma once
// One configured evaluator as the runner sees it: its name, component and threshold, and a checked
// call to evaluate() carried out by its backend (in this process, or in worker processes).
#include "krino/core/plugin/component.hpp"
#include "krino/core/runner/eval_result_check.hpp"
#include "krino/core/runner/evaluator_backend.hpp"
#include "krino/core/common/item_error.hpp"

#include <krino/plugin.h>

#include <boost/json/object.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core {

class EvaluatorHandle {
 public:
  // A plugin evaluator called in this process. `options` must already be validated against the
  // component's schema. Throws a configuration error when the plugin refuses them.
  EvaluatorHandle(const Component& component, const krino_host* host, std::string name,
                  const boost::json::object& options, size_t workers);
  // An evaluator whose calls `backend` carries out. `component` describes it (a plugin's, or one
  // made from a worker's handshake, then owned by the handle).
  EvaluatorHandle(std::shared_ptr<const Component> component, std::string name, const boost::json::object& options,
                  std::unique_ptr<EvaluatorBackend> backend);
  EvaluatorHandle(const Component& component, std::string name, const boost::json::object& options,
                  std::unique_ptr<EvaluatorBackend> backend);
  ~EvaluatorHandle();
  EvaluatorHandle(const EvaluatorHandle&) = delete;
  EvaluatorHandle& operator=(const EvaluatorHandle&) = delete;

  const std::string& name() const { return name_; }
  const Component& component() const { return component_; }
  const std::optional<double>& threshold() const { return threshold_; }

  // The checked eval result (its "name" this evaluator's name), or why there is none.
  StatusOr<CheckedResult, ItemError> evaluate(const krino_call_context& ctx, std::string_view testcase) const;
  // The same for several items at once, in their order (EvaluatorBackend::evaluate_batch).
  std::vector<StatusOr<CheckedResult, ItemError>> evaluate_batch(std::span<const EvaluatorCall> calls) const;
  // Whether items are better handed to this evaluator in groups (its calls wait on another process).
  bool batches() const { return backend_->batches(); }

 private:
  StatusOr<CheckedResult, ItemError> checked(StatusOr<WrittenResult, ItemError> written) const;

  std::shared_ptr<const Component> owned_component_;
  const Component& component_;
  std::string name_;
  std::optional<double> threshold_;
  std::unique_ptr<EvaluatorBackend> backend_;
};

}  // namespace krino::core
