#include "krino/core/runner/evaluator_handle.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/string_sink.hpp"

#include <boost/json.hpp>
#include <krino/json_text.hpp>
#include <krino/plugin/schema_defaults.hpp>

namespace krino::core {

EvaluatorHandle::EvaluatorHandle(const Component& component, const krino_host* host, std::string name,
                                 const boost::json::object& options, size_t workers)
    : component_(component), name_(std::move(name)) {
  // The threshold run_started announces: as set, else the one the evaluator's schema declares as its
  // default (what the evaluator then applies), so reports can show it either way.
  if (auto it = options.find("threshold"); it != options.end() && it->value().is_number()) {
    threshold_ = it->value().to_number<double>();
  } else if (it == options.end()) {
    const boost::json::object defaults = krino::schema_defaults(component.config_schema);
    if (const auto* fallback = defaults.if_contains("threshold"); fallback != nullptr && fallback->is_number())
      threshold_ = fallback->to_number<double>();
  }
  shared_ = component.has(KRINO_CAP_THREAD_SAFE);
  const size_t count = shared_ ? 1 : std::max<size_t>(1, workers);
  const std::string config = ::krino::json::to_compact_json(options);
  for (size_t i = 0; i < count; ++i) {
    StringSink error;
    void* instance = nullptr;
    krino_status status = component.evaluator().create(host, config.data(), config.size(), &instance, error.sink());
    if (status != KRINO_OK || instance == nullptr) {
      for (void* created : instances_) component.evaluator().destroy(created);
      instances_.clear();
      throw config_error("evaluator '" + name_ + "' (" + component.id + ") rejected its options: " +
                         (error.text().empty() ? "no reason given" : error.message()));
    }
    instances_.push_back(instance);
    idle_.push(instance);
  }
}

EvaluatorHandle::~EvaluatorHandle() {
  for (void* instance : instances_) component_.evaluator().destroy(instance);
}

void* EvaluatorHandle::acquire() const {
  if (shared_) return instances_.front();
  void* instance = nullptr;
  idle_.pop(instance);  // blocks only if more workers than instances, which the runner avoids
  return instance;
}

void EvaluatorHandle::release(void* instance) const {
  if (!shared_) idle_.push(instance);
}

StatusOr<CheckedResult, ItemError> EvaluatorHandle::evaluate(const krino_call_context& ctx,
                                                             std::string_view testcase) const {
  StringSink result;
  StringSink error;
  void* instance = acquire();
  krino_status status =
      component_.evaluator().evaluate(instance, &ctx, testcase.data(), testcase.size(), result.sink(), error.sink());
  release(instance);
  if (status != KRINO_OK) {
    return ItemError{"evaluator", name_, status, error.text().empty() ? "evaluator failed without a message" : error.message()};
  }
  auto checked = check_eval_result(result.text(), name_);
  if (!checked.ok()) return ItemError{"evaluator", name_, KRINO_INTERNAL, "returned a malformed result: " + checked.error().message};
  return std::move(checked).value();
}

}  // namespace krino::core
