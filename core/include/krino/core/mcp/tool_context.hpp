#pragma once
// What a running MCP tool may use besides its arguments: the cancellation of its request (set when
// the client sends notifications/cancelled, or the session ends) and a way to report progress.
// A tool runs on one of the server's workers; report_progress may be called from any thread.
#include "krino/core/common/cancellation.hpp"

#include <functional>
#include <mutex>
#include <optional>
#include <string_view>

namespace krino::core::mcp {

class ToolContext {
 public:
  // Sends one notifications/progress; empty when the request carried no progress token.
  using ProgressSink = std::function<void(double progress, std::optional<double> total, std::string_view message)>;

  // `cancellation` must outlive the context.
  ToolContext(const Cancellation& cancellation, ProgressSink progress);

  // A context nothing cancels and no one listens to, for calls outside a session (tests, tools
  // calling each other).
  static const ToolContext& detached();

  const Cancellation& cancellation() const noexcept { return cancellation_; }
  bool cancelled() const noexcept { return cancellation_.requested(); }

  // Reports how far the tool is: `progress` out of `total` when known, and a short message. MCP
  // wants the progress of one request to increase, so a value not above the last one is dropped,
  // as is everything once the request is cancelled. Thread-safe; notifications keep call order.
  void report_progress(double progress, std::optional<double> total = std::nullopt, std::string_view message = {}) const;

 private:
  const Cancellation& cancellation_;
  ProgressSink progress_;
  mutable std::mutex mutex_;
  mutable std::optional<double> last_;
};

}  // namespace krino::core::mcp
