#pragma once
// Where an evaluator's calls run: in this process through the plugin's vtable
// (InProcessEvaluator), or in worker processes over krino.evaluatorworker/1 (WorkerEvaluator: a
// script in any language, or a plugin under `isolation: process`). EvaluatorHandle checks what
// either returns, so the runner sees one kind of evaluator.
#include "krino/core/common/item_error.hpp"
#include "krino/core/common/status.hpp"

#include <krino/plugin.h>

#include <string>
#include <string_view>

namespace krino::core {

class EvaluatorBackend {
 public:
  virtual ~EvaluatorBackend() = default;
  // The eval result's text as the evaluator wrote it (not yet checked), or why there is none.
  // [thread-safe]: called from many TBB workers at once.
  virtual StatusOr<std::string, ItemError> evaluate(const krino_call_context& ctx, std::string_view testcase) const = 0;
};

}  // namespace krino::core
