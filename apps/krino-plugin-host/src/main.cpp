// krino-plugin-host --library LIB.so --component ID [--memory-limit-bytes N]
// krino-plugin-host --probe LIB.so
// krino-plugin-host --check --library LIB.so --component ID
//
// One plugin evaluator in a process of its own, for `isolation: process` (docs/sdk.md, "Evaluators
// in worker processes"): loads the library through core's plugin loader and answers
// krino.evaluatorworker/1 on stdin/stdout until stdin ends. Whatever the plugin prints to stdout
// goes to stderr: stdout is the protocol's. --memory-limit-bytes (memory_mb) is set as the
// process's address-space limit before anything else, so the handshake knows it is limited.
//
// --check (with --library and --component) calls that component on sample inputs for `krino
// plugins check` (plugin_check.hpp).
//
// --probe loads the library, prints what the loader found as one krino.pluginprobe/1 document
// (core/plugin/plugin_probe.hpp) and exits: krino's discovery runs it on every new or changed
// library, so one whose entry point crashes or hangs takes down this process, not krino.
#include "plugin_check.hpp"
#include "plugin_worker.hpp"

#include "krino/core/common/cancellation.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/plugin/plugin_loader.hpp"
#include "krino/core/plugin/plugin_probe.hpp"

#include <ext/stdio_filebuf.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <istream>
#include <string>

namespace {

// The protocol keeps the real stdout; descriptor 1 (printf, std::cout) becomes stderr.
std::FILE* take_stdout() {
  const int protocol_fd = ::dup(STDOUT_FILENO);
  std::FILE* protocol = protocol_fd >= 0 ? ::fdopen(protocol_fd, "w") : nullptr;
  if (protocol == nullptr || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::perror("krino-plugin-host: stdout");
    return nullptr;
  }
  return protocol;
}

int probe(const std::string& library) {
  std::FILE* out = take_stdout();
  if (out == nullptr) return 2;
  krino::core::Cancellation cancellation;
  krino::core::HostServices host(cancellation);
  const auto loaded = krino::core::load_plugin(library, *host.host_info());
  const std::string document = krino::core::probe_document(loaded);
  std::fwrite(document.data(), 1, document.size(), out);
  std::fputc('\n', out);
  if (std::fflush(out) != 0) return 2;
  if (loaded.ok() && loaded.value()->deinit != nullptr) loaded.value()->deinit();
  return 0;
}

// stdout for the report, and the plugin's descriptor 1 pointed at an anonymous temporary file, so
// that what a call prints can be told from what it does not.
std::FILE* take_stdout_for_check(int& plugin_stdout) {
  std::FILE* captured = std::tmpfile();
  const int report_fd = ::dup(STDOUT_FILENO);
  std::FILE* report = report_fd >= 0 ? ::fdopen(report_fd, "w") : nullptr;
  if (captured == nullptr || report == nullptr || ::dup2(::fileno(captured), STDOUT_FILENO) < 0) {
    std::perror("krino-plugin-host: stdout");
    return nullptr;
  }
  plugin_stdout = STDOUT_FILENO;
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--probe") == 0) return probe(argv[2]);
  std::string library;
  std::string component_id;
  bool check = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--check") == 0) check = true;
    else if (i + 1 < argc && std::strcmp(argv[i], "--memory-limit-bytes") == 0) {
      char* end = nullptr;
      const unsigned long long bytes = std::strtoull(argv[++i], &end, 10);
      const struct rlimit limit{bytes, bytes};
      if (end == argv[i] || *end != '\0' || bytes == 0 || ::setrlimit(RLIMIT_AS, &limit) != 0) {
        std::fprintf(stderr, "krino-plugin-host: cannot set a memory limit of '%s' bytes\n", argv[i]);
        return 2;
      }
    }
    else if (i + 1 < argc && std::strcmp(argv[i], "--library") == 0) library = argv[++i];
    else if (i + 1 < argc && std::strcmp(argv[i], "--component") == 0) component_id = argv[++i];
  }
  if (library.empty() || component_id.empty()) {
    std::fprintf(stderr, "usage: krino-plugin-host --library LIB.so --component ID [--memory-limit-bytes N]\n"
                         "       krino-plugin-host --probe LIB.so\n"
                         "       krino-plugin-host --check --library LIB.so --component ID\n");
    return 2;
  }
  int plugin_stdout = -1;
  std::FILE* protocol = check ? take_stdout_for_check(plugin_stdout) : take_stdout();
  if (protocol == nullptr) return 2;
  // krino writes pipelined requests in groups of several test cases: one read takes what has
  // arrived, up to a megabyte (std::cin's buffer would read 8 KB at a time, a system call for every
  // case or two, and cannot be given a larger one once open).
  __gnu_cxx::stdio_filebuf<char> request_buffer(STDIN_FILENO, std::ios::in, 1 << 20);
  std::istream requests(&request_buffer);

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
    if (check) {
      const int code = krino::plugin_host::check_component(component, host.host(), protocol, plugin_stdout);
      if (plugin.deinit != nullptr) plugin.deinit();
      return code;
    }
    if (component.kind != krino::core::ComponentKind::evaluator) {
      std::fprintf(stderr, "krino-plugin-host: %s is not an evaluator\n", component_id.c_str());
      return 2;
    }
    const int code = krino::plugin_host::serve(component, host.host(), requests, protocol);
    if (plugin.deinit != nullptr) plugin.deinit();
    return code;
  }
  std::fprintf(stderr, "krino-plugin-host: %s has no component '%s'\n", library.c_str(), component_id.c_str());
  return 2;
}
