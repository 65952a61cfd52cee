#pragma once
// What a running MCP tool may use besides its arguments: the cancellation of its request (set when
// the client sends notifications/cancelled, or the session ends) and a way to report progress.
// A tool runs on one of the server's workers; report_progress may be called from any thread.
#include "krino/core/common/cancellation.hpp"
#include "krino/core/store/store_types.hpp"

#include <functional>
#include <mutex>
#include <optional>
#include <string_view>

namespace krino::core::mcp {

class ToolContext {
 public:
  // Sends one notifications/progress; empty when the request carried no progress token.
  using ProgressSink = std::function<void(double progress, std::optional<double> total, std::string_view message)>;

  // `cancellation` must outlive the context. `scope` is the rows of the store the caller may see
  // and stamps: every tenant's for the local user of `krino mcp`, one tenant's for a tenant key on
  // `/mcp` (store::Scope, as the REST API's).
  ToolContext(const Cancellation& cancellation, ProgressSink progress, store::Scope scope = {});

  // A context nothing cancels and no one listens to, for calls outside a session (tests, tools
  // calling each other).
  static const ToolContext& detached();

  const Cancellation& cancellation() const noexcept { return cancellation_; }
  bool cancelled() const noexcept { return cancellation_.requested(); }
  const store::Scope& scope() const noexcept { return scope_; }

  // Reports how far the tool is: `progress` out of `total` when known, and a short message. MCP
  // wants the progress of one request to increase, so a value not above the last one is dropped,
  // as is everything once the request is cancelled. Thread-safe; notifications keep call order.
  void report_progress(double progress, std::optional<double> total = std::nullopt, std::string_view message = {}) const;

 private:
  const Cancellation& cancellation_;
  ProgressSink progress_;
  store::Scope scope_;
  mutable std::mutex mutex_;
  mutable std::optional<double> last_;
};

}  // namespace krino::core::mcp
