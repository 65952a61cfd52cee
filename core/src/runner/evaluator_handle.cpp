#include "krino/core/runner/evaluator_handle.hpp"

#include "krino/core/runner/in_process_evaluator.hpp"

#include <boost/json.hpp>
#include <krino/plugin/schema_defaults.hpp>

namespace krino::core {
namespace {

// The threshold run_started announces: as set, else the one the evaluator's schema declares as its
// default (what the evaluator then applies), so reports can show it either way.
std::optional<double> announced_threshold(const Component& component, const boost::json::object& options) {
  if (auto it = options.find("threshold"); it != options.end()) {
    if (it->value().is_number()) return it->value().to_number<double>();
    return std::nullopt;
  }
  const boost::json::object defaults = krino::schema_defaults(component.config_schema);
  if (const auto* fallback = defaults.if_contains("threshold"); fallback != nullptr && fallback->is_number())
    return fallback->to_number<double>();
  return std::nullopt;
}

}  // namespace

EvaluatorHandle::EvaluatorHandle(const Component& component, const krino_host* host, std::string name,
                                 const boost::json::object& options, size_t workers)
    : EvaluatorHandle(component, name, options,
                      std::make_unique<InProcessEvaluator>(component, host, name, options, workers)) {}

EvaluatorHandle::EvaluatorHandle(std::shared_ptr<const Component> component, std::string name,
                                 const boost::json::object& options, std::unique_ptr<EvaluatorBackend> backend)
    : owned_component_(std::move(component)),
      component_(*owned_component_),
      name_(std::move(name)),
      threshold_(announced_threshold(component_, options)),
      backend_(std::move(backend)) {}

EvaluatorHandle::EvaluatorHandle(const Component& component, std::string name, const boost::json::object& options,
                                 std::unique_ptr<EvaluatorBackend> backend)
    : component_(component),
      name_(std::move(name)),
      threshold_(announced_threshold(component_, options)),
      backend_(std::move(backend)) {}

EvaluatorHandle::~EvaluatorHandle() = default;

StatusOr<CheckedResult, ItemError> EvaluatorHandle::checked(StatusOr<WrittenResult, ItemError> written) const {
  if (!written.ok()) return std::move(written).error();
  if (auto* taken = std::get_if<CheckedResult>(&written.value())) return std::move(*taken);  // checked as it was taken
  auto checked = check_eval_result(std::get<std::string>(written.value()), name_);
  if (!checked.ok()) return ItemError{"evaluator", name_, KRINO_INTERNAL, "returned a malformed result: " + checked.error().message};
  return std::move(checked).value();
}

StatusOr<CheckedResult, ItemError> EvaluatorHandle::evaluate(const krino_call_context& ctx,
                                                             std::string_view testcase) const {
  return checked(backend_->evaluate(ctx, testcase));
}

std::vector<StatusOr<CheckedResult, ItemError>> EvaluatorHandle::evaluate_batch(std::span<const EvaluatorCall> calls) const {
  std::vector<StatusOr<WrittenResult, ItemError>> written = backend_->evaluate_batch(calls);
  std::vector<StatusOr<CheckedResult, ItemError>> results;
  results.reserve(written.size());
  for (auto& one : written) results.push_back(checked(std::move(one)));
  return results;
}

}  // namespace krino::core
