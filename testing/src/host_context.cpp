#include "host_context.hpp"

#include "krino/testing/error.hpp"

#include "krino/core/common/environment_lookup.hpp"
#include "krino/core/common/error.hpp"
#include "krino/core/experiment/experiment_config.hpp"
#include "krino/core/experiment/experiment_judges.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <optional>

namespace krino::testing::detail {
namespace {

// This library's own file. It is installed as <prefix>/lib/libkrino-testing.so beside
// <prefix>/lib/krino/plugins (and built as build/lib/libkrino-testing.so beside build/lib/krino/plugins),
// which is where `krino` looks beside itself: <dir>/../lib/krino/plugins. So it stands in for the
// executable, whatever prefix the package was configured with.
std::optional<std::filesystem::path> this_library() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&this_library), &info) == 0 || info.dli_fname == nullptr) return std::nullopt;
  std::error_code ec;
  std::filesystem::path path = std::filesystem::canonical(info.dli_fname, ec);
  if (ec) return std::nullopt;
  return path;
}

}  // namespace

HostContext::HostContext(const LoadOptions& options) {
  core::PluginSearch search;
  for (const auto& dir : options.plugin_dirs) search.plugin_dirs.emplace_back(dir);
  if (options.use_plugin_path_env) {
    if (const char* env = std::getenv("KRINO_PLUGIN_PATH"); env != nullptr && *env != '\0') search.plugin_path_env = env;
  }
  search.executable = this_library();
  search.allow_list = options.plugins;
  host.set_http(&http);
  try {
    if (!options.judges_file.empty()) {
      judges = core::make_judge_service(core::load_judge_settings(options.judges_file),
                                        core::JudgeSetupOptions{options.no_cache, core::process_environment(), &io});
      host.set_judge_service(judges.get());
    }
    registry.load(search, *host.host_info());
  } catch (const std::exception& e) {
    throw Error(e.what());
  }
}

EvaluatorState::EvaluatorState(std::shared_ptr<HostContext> owner, std::unique_ptr<core::EvaluatorHandle> handle)
    : context(std::move(owner)), processor(context->host, handles, core::ExperimentConfig{}.seed) {
  handles.push_back(std::move(handle));
  processor.set_writes_line(false);  // no reporter reads the item's line
}

}  // namespace krino::testing::detail
