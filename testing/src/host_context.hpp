#pragma once
// What an Evaluators shares with every Evaluator made from it: core's host services, the loaded
// plugins, and the judges. Held by shared_ptr, so the plugins stay loaded while any evaluator lives.
#include "krino/testing/evaluators.hpp"

#include "krino/core/common/cancellation.hpp"
#include "krino/core/common/io_service.hpp"
#include "krino/core/host/host_http.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/llm/judge_service.hpp"
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/runner/evaluator_handle.hpp"
#include "krino/core/runner/item_processor.hpp"

#include <memory>
#include <string>
#include <vector>

namespace krino::testing::detail {

struct HostContext {
  // Loads the plugins (and the judges) as `krino eval` does. Throws Error.
  explicit HostContext(const LoadOptions& options);
  HostContext(const HostContext&) = delete;
  HostContext& operator=(const HostContext&) = delete;

  // Destroyed bottom up: the registry unloads the plugins after every use of them is gone, and the
  // I/O service (the judges' calls, the HTTP client lent to reporters) stops last.
  core::Cancellation cancellation;
  core::HostServices host{cancellation};
  core::IoService io;
  core::HostHttp http{io.context()};  // krino.host.http/1, which the server reporter sends with
  std::unique_ptr<core::JudgeService> judges;
  core::PluginRegistry registry;
};

struct EvaluatorState {
  EvaluatorState(std::shared_ptr<HostContext> context, std::unique_ptr<core::EvaluatorHandle> handle);

  std::shared_ptr<HostContext> context;  // first: outlives the handle below
  std::vector<std::unique_ptr<core::EvaluatorHandle>> handles;  // the one evaluator, as ItemProcessor takes it
  core::ItemProcessor processor;
};

}  // namespace krino::testing::detail
