// krino-plugin-host --library LIB.so --component ID
//
// One plugin evaluator in a process of its own, for `isolation: process` (docs/sdk.md, "Evaluators
// in worker processes"): loads the library through core's plugin loader and answers
// krino.evaluatorworker/1 on stdin/stdout until stdin ends. Whatever the plugin prints to stdout
// goes to stderr: stdout is the protocol's.
#include "plugin_worker.hpp"

#include "krino/core/common/cancellation.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/plugin/plugin_loader.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  std::string library;
  std::string component_id;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--library") == 0) library = argv[i + 1];
    else if (std::strcmp(argv[i], "--component") == 0) component_id = argv[i + 1];
  }
  if (library.empty() || component_id.empty()) {
    std::fprintf(stderr, "usage: krino-plugin-host --library LIB.so --component ID\n");
    return 2;
  }
  // The protocol keeps the real stdout; descriptor 1 (printf, std::cout) becomes stderr.
  const int protocol_fd = ::dup(STDOUT_FILENO);
  std::FILE* protocol = protocol_fd >= 0 ? ::fdopen(protocol_fd, "w") : nullptr;
  if (protocol == nullptr || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::perror("krino-plugin-host: stdout");
    return 2;
  }
  std::ios::sync_with_stdio(false);

  krino::core::Cancellation cancellation;
  krino::core::HostServices host(cancellation);
  auto loaded = krino::core::load_plugin(library, *host.host_info());
  if (!loaded.ok()) {
    std::fprintf(stderr, "krino-plugin-host: %s: %s\n", library.c_str(), loaded.error().message.c_str());
    return 2;
  }
  const auto& plugin = *loaded.value();
  for (const auto& component : plugin.components) {
    if (component.id != component_id) continue;
    if (component.kind != krino::core::ComponentKind::evaluator) {
      std::fprintf(stderr, "krino-plugin-host: %s is not an evaluator\n", component_id.c_str());
      return 2;
    }
    const int code = krino::plugin_host::serve(component, host.host(), std::cin, protocol);
    if (plugin.deinit != nullptr) plugin.deinit();
    return code;
  }
  std::fprintf(stderr, "krino-plugin-host: %s has no component '%s'\n", library.c_str(), component_id.c_str());
  return 2;
}
