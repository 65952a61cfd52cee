#include "krino/core/runner/in_process_evaluator.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/string_sink.hpp"

#include <krino/json_text.hpp>

#include <algorithm>

namespace krino::core {

InProcessEvaluator::InProcessEvaluator(const Component& component, const krino_host* host, std::string name,
                                       const boost::json::object& options, size_t workers)
    : component_(component), name_(std::move(name)) {
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

InProcessEvaluator::~InProcessEvaluator() {
  for (void* instance : instances_) component_.evaluator().destroy(instance);
}

void* InProcessEvaluator::acquire() const {
  if (shared_) return instances_.front();
  void* instance = nullptr;
  idle_.pop(instance);  // blocks only if more workers than instances, which the runner avoids
  return instance;
}

void InProcessEvaluator::release(void* instance) const {
  if (!shared_) idle_.push(instance);
}

StatusOr<std::string, ItemError> InProcessEvaluator::evaluate(const krino_call_context& ctx,
                                                              std::string_view testcase) const {
  StringSink result;
  StringSink error;
  void* instance = acquire();
  krino_status status =
      component_.evaluator().evaluate(instance, &ctx, testcase.data(), testcase.size(), result.sink(), error.sink());
  release(instance);
  if (status != KRINO_OK) {
    return ItemError{"evaluator", name_, status,
                     error.text().empty() ? "evaluator failed without a message" : error.message()};
  }
  return std::move(result.text());
}

}  // namespace krino::core
