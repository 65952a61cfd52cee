#include "krino/core/mcp/tool_context.hpp"

namespace krino::core::mcp {

ToolContext::ToolContext(const Cancellation& cancellation, ProgressSink progress, store::Scope scope)
    : cancellation_(cancellation), progress_(std::move(progress)), scope_(std::move(scope)) {}

const ToolContext& ToolContext::detached() {
  static const Cancellation never;
  static const ToolContext context(never, nullptr);
  return context;
}

void ToolContext::report_progress(double progress, std::optional<double> total, std::string_view message) const {
  if (!progress_ || cancelled()) return;
  // Held while sending, so two threads' reports reach the client in the order they were checked.
  std::lock_guard lock(mutex_);
  if (last_.has_value() && progress <= *last_) return;
  last_ = progress;
  progress_(progress, total, message);
}

}  // namespace krino::core::mcp
