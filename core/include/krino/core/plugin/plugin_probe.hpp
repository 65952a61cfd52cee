#pragma once
// Probing a plugin library in a child process (`krino-plugin-host --probe LIB.so`), so that a
// library whose entry point crashes, aborts or hangs costs a warning instead of the command that
// scanned its directory. The child loads the library with core's loader and prints what it found
// as one JSON document (krino.pluginprobe/1); the parent turns that back into a LoadedPlugin whose
// library is opened in the parent only when one of its components is used (LoadedPlugin::deferred).
#include "krino/core/plugin/loaded_plugin.hpp"
#include "krino/core/plugin/plugin_loader.hpp"

#include <krino/plugin.h>

#include <boost/json/value.hpp>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core {

inline constexpr std::string_view kPluginProbeFormat = "krino.pluginprobe/1";

// The probe document of a load: the plugin's metadata and components, or the loader's refusal.
std::string probe_document(const LoadResult& loaded);

// What a probe document says: the plugin (metadata only, its library not open, deferred to load in
// this process with `host_info`), or why the loader refused it. Throws std::runtime_error when the
// text is not a probe document.
LoadResult plugin_from_probe(const boost::json::value& document, const std::filesystem::path& path,
                             const krino_host_info& host_info);
LoadResult plugin_from_probe(std::string_view document, const std::filesystem::path& path,
                             const krino_host_info& host_info);

// How the probe of one library ended.
struct ProbeOutcome {
  std::filesystem::path path;
  bool described = false;  // the child printed a probe document (`document`)
  std::string document;
  std::string failure;     // otherwise: how the child ended ("was killed by signal 11 (SIGSEGV)"...)
  bool timed_out = false;  // a failure that may depend on the machine's load: never cached
};

// Probes every file with `host_program`, several at a time, each stopped after `timeout`.
std::vector<ProbeOutcome> probe_libraries(const std::vector<std::filesystem::path>& files,
                                          const std::string& host_program, std::chrono::milliseconds timeout);

}  // namespace krino::core
