// krino C++ helper: the plugin's entry point and descriptor. KRINO_PLUGIN defines
// krino_plugin_entry, once per library; three optional companion lines, each anywhere in the
// library and in any order, declare what the descriptor carries beyond its metadata:
//
//   KRINO_PLUGIN("com.acme.words", "words", "1.0.0", "ACME", "MIT", "Word evaluators")
//   KRINO_PLUGIN_DEINIT(release_dictionaries);                    // void release_dictionaries()
//   KRINO_PLUGIN_MIN_HOST_ABI_MINOR(1);                          // needs a host speaking ABI 1.1+
//   KRINO_PLUGIN_EXTENSION("com.acme.words.stats/1", &kStats);  // a table the host can look up
//
// Without them the descriptor says what KRINO_PLUGIN alone always said: min_host_abi_minor 0, no
// deinit, no extensions (deinit and get_extension NULL).
//
// Threads: the entry and the deinit functions run on the host's main thread ([main-thread]), the
// deinit functions once, after every instance is destroyed and before the library is unloaded, while
// the host services are still valid. The extension lookup is [thread-safe]. Ownership: the plugin
// owns the descriptor, its strings and every extension table; they must live until the library is
// unloaded (string literals and static tables do). What a deinit function releases is the plugin's.
#ifndef KRINO_PLUGIN_ENTRY_HPP
#define KRINO_PLUGIN_ENTRY_HPP

#include <krino/plugin.h>
#include <krino/plugin/registry.hpp>
#include <krino/plugin/sink.hpp>

#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <utility>

namespace krino {
namespace detail {

// The descriptor's deinit when the plugin declared any: runs the declared functions, last declared
// first, and lets no exception out (one that escapes is logged and the others still run).
inline void run_deinits() noexcept {
  Registry& reg = registry();
  for (auto it = reg.deinits.rbegin(); it != reg.deinits.rend(); ++it) {
    std::string problem;
    try {
      (*it)();
    } catch (const std::exception& e) {
      problem = e.what();
    } catch (...) {
      problem = "unknown exception";
    }
    if (!problem.empty() && reg.host != nullptr && reg.host->log != nullptr) {
      problem = "a deinit function threw: " + problem;
      reg.host->log(reg.host, KRINO_LOG_ERROR, nullptr, problem.data(), problem.size());
    }
  }
  reg.host = nullptr;
}

// The descriptor's get_extension when the plugin declared any extension. [thread-safe]: the list is
// only written while static initializers run.
inline const void* find_extension(const char* extension_id) noexcept {
  if (extension_id == nullptr) return nullptr;
  for (const Extension& extension : registry().extensions) {
    if (std::strcmp(extension.id, extension_id) == 0) return extension.table;
  }
  return nullptr;
}

// Keeps the first problem; the entry refuses to load with it.
inline void declaration_problem(std::string message) {
  if (registry().problem.empty()) registry().problem = std::move(message);
}

inline bool declare_deinit(void (*function)()) {
  if (function == nullptr) declaration_problem("KRINO_PLUGIN_DEINIT names no function");
  else registry().deinits.push_back(function);
  return true;
}

// A plugin cannot need a host minor newer than the plugin.h it is built against.
template <unsigned Minor>
bool declare_min_host_abi_minor() {
  static_assert(Minor <= KRINO_ABI_MINOR, "KRINO_PLUGIN_MIN_HOST_ABI_MINOR: newer than this plugin.h's KRINO_ABI_MINOR");
  uint16_t& declared = registry().min_host_abi_minor;
  if (Minor > declared) declared = static_cast<uint16_t>(Minor);
  return true;
}

inline bool declare_extension(const char* extension_id, const void* table) {
  const std::string_view id = extension_id != nullptr ? extension_id : "";
  if (id.empty() || id.find('/') == std::string_view::npos || id.back() == '/') {
    declaration_problem("KRINO_PLUGIN_EXTENSION: '" + std::string(id) + "' is not a versioned id such as \"com.acme.stats/1\"");
  } else if (table == nullptr) {
    declaration_problem("KRINO_PLUGIN_EXTENSION: '" + std::string(id) + "' has no table");
  } else if (find_extension(extension_id) != nullptr) {
    declaration_problem("KRINO_PLUGIN_EXTENSION: '" + std::string(id) + "' is declared twice");
  } else {
    registry().extensions.push_back(Extension{extension_id, table});
  }
  return true;
}

// The body of krino_plugin_entry. Refuses a host of another ABI major, and a library whose
// KRINO_PLUGIN_* declarations are wrong (the reason goes to `error`).
inline const krino_plugin_descriptor* plugin_entry(const krino_host_info* info, krino_sink* error, const char* id,
                                                   const char* name, const char* version, const char* vendor,
                                                   const char* license, const char* description) noexcept {
  if (info == nullptr || info->abi_major != KRINO_ABI_MAJOR) {
    write(error, "unsupported host ABI major version");
    return nullptr;
  }
  Registry& reg = registry();
  if (!reg.problem.empty()) {
    write(error, reg.problem);
    return nullptr;
  }
  reg.host = info->host;
  krino_plugin_descriptor& d = reg.descriptor;
  d.struct_size = sizeof(krino_plugin_descriptor);
  d.abi_major = KRINO_ABI_MAJOR;
  d.abi_minor = KRINO_ABI_MINOR;
  d.min_host_abi_minor = reg.min_host_abi_minor;
  d.id = id;
  d.name = name;
  d.version = version;
  d.vendor = vendor;
  d.license = license;
  d.description = description;
  d.component_count = reg.components.size();
  d.components = reg.components.data();
  d.deinit = reg.deinits.empty() ? nullptr : &run_deinits;
  d.get_extension = reg.extensions.empty() ? nullptr : &find_extension;
  return &d;
}

}  // namespace detail
}  // namespace krino

// Defines the plugin's entry point. Use exactly once per plugin.
#define KRINO_PLUGIN(plugin_id, plugin_name, plugin_version, plugin_vendor, plugin_license, plugin_description) \
  extern "C" KRINO_EXPORT const krino_plugin_descriptor* krino_plugin_entry(const krino_host_info* info,       \
                                                                            krino_sink* error) {                \
    return ::krino::detail::plugin_entry(info, error, plugin_id, plugin_name, plugin_version, plugin_vendor,    \
                                         plugin_license, plugin_description);                                   \
  }

// Declares a function `void function()` the host calls once when it unloads the plugin, after
// every instance is destroyed ([main-thread]). Several may be declared; they run last declared
// first (across translation units, in an unspecified order). An exception from one is logged, not
// propagated.
#define KRINO_PLUGIN_DEINIT(function)                                    \
  static const bool KRINO_DETAIL_CONCAT(krino_registered_, __COUNTER__) = \
      ::krino::detail::declare_deinit(function)

// Declares the oldest host ABI minor this plugin works with (a constant; at most KRINO_ABI_MINOR).
// The host refuses the plugin when its own minor is older. Declared twice, the larger counts.
#define KRINO_PLUGIN_MIN_HOST_ABI_MINOR(minor)                           \
  static const bool KRINO_DETAIL_CONCAT(krino_registered_, __COUNTER__) = \
      ::krino::detail::declare_min_host_abi_minor<(minor)>()

// Declares a plugin extension: `table` (a pointer to the plugin's static table) is what the
// descriptor's get_extension returns for `extension_id`, a versioned id ("com.acme.words.stats/1").
// An id without a version, a null table or an id declared twice makes the entry refuse to load.
#define KRINO_PLUGIN_EXTENSION(extension_id, table)                      \
  static const bool KRINO_DETAIL_CONCAT(krino_registered_, __COUNTER__) = \
      ::krino::detail::declare_extension(extension_id, table)

#endif  // KRINO_PLUGIN_ENTRY_HPP
