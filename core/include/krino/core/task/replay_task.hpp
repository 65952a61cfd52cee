#pragma once
// The replay task: the actual outputs were recorded earlier and travel with the example
// ("actualOutputs", and optionally "metrics"), which is how logged runs are scored offline.
#include "krino/core/task/task.hpp"

#include <string>

namespace krino::core {

class ReplayTask final : public Task {
 public:
  // Options: none yet; unknown options are a configuration error.
  explicit ReplayTask(const boost::json::object& options);

  std::variant<TaskOutput, ItemError> run(const ExampleView& example, const krino_call_context& ctx) const override;
  bool calls_out() const override { return false; }
  const char* kind() const override { return "replay"; }
};

}  // namespace krino::core
