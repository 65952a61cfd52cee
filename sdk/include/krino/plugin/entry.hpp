// krino C++ helper: the plugin's entry point and descriptor. KRINO_PLUGIN defines
// krino_plugin_entry, once per library:
//
//   KRINO_PLUGIN("com.acme.words", "words", "1.0.0", "ACME", "MIT", "Word evaluators")
//
// The descriptor says min_host_abi_minor 0, no deinit, no extensions.
//
// Threads: the entry runs on the host's main thread ([main-thread]). Ownership: the plugin owns the
// descriptor and its strings; they live until the library is unloaded (string literals do).
#ifndef KRINO_PLUGIN_ENTRY_HPP
#define KRINO_PLUGIN_ENTRY_HPP

#include <krino/plugin.h>
#include <krino/plugin/registry.hpp>
#include <krino/plugin/sink.hpp>

// Defines the plugin's entry point. Use exactly once per plugin.
#define KRINO_PLUGIN(plugin_id, plugin_name, plugin_version, plugin_vendor, plugin_license, plugin_description)                                        \
  extern "C" KRINO_EXPORT const krino_plugin_descriptor* krino_plugin_entry(const krino_host_info* info,    \
                                                                            krino_sink* error) {             \
    if (info == nullptr || info->abi_major != KRINO_ABI_MAJOR) {                                            \
      ::krino::write(error, "unsupported host ABI major version");                                          \
      return nullptr;                                                                                       \
    }                                                                                                       \
    auto& reg = ::krino::detail::registry();                                                                \
    reg.host = info->host;                                                                                  \
    auto& d = reg.descriptor;                                                                               \
    d.struct_size = sizeof(krino_plugin_descriptor);                                                        \
    d.abi_major = KRINO_ABI_MAJOR;                                                                          \
    d.abi_minor = KRINO_ABI_MINOR;                                                                          \
    d.min_host_abi_minor = 0;                                                                               \
    d.id = plugin_id;                                                                                              \
    d.name = plugin_name;                                                                                          \
    d.version = plugin_version;                                                                                    \
    d.vendor = plugin_vendor;                                                                                      \
    d.license = plugin_license;                                                                                    \
    d.description = plugin_description;                                                                           \
    d.component_count = reg.components.size();                                                              \
    d.components = reg.components.data();                                                                   \
    d.deinit = nullptr;                                                                                     \
    d.get_extension = nullptr;                                                                              \
    return &d;                                                                                              \
  }

#endif  // KRINO_PLUGIN_ENTRY_HPP
