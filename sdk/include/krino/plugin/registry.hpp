// krino C++ helper: the registry of what a plugin declares (its components), filled by the
// registration macros while the library's static initializers run, read by the entry point
// (<krino/plugin/entry.hpp>).
//
// Threads: written only during static initialization (dlopen, before the entry is called), then
// read-only; the entry runs on the host's main thread. Ownership: the plugin's; the
// descriptor and component array handed to the host live in it until the library is unloaded,
// which is after deinit, as plugin.h requires.
#ifndef KRINO_PLUGIN_REGISTRY_HPP
#define KRINO_PLUGIN_REGISTRY_HPP

#include <krino/plugin.h>

#include <cstdint>
#include <vector>

// A name unique within the translation unit, for the registration macros' static variables.
#define KRINO_DETAIL_CONCAT2(a, b) a##b
#define KRINO_DETAIL_CONCAT(a, b) KRINO_DETAIL_CONCAT2(a, b)

namespace krino {
namespace detail {

struct Registry {
  std::vector<krino_component> components;
  const krino_host* host = nullptr;
  krino_plugin_descriptor descriptor{};
};

inline Registry& registry() {
  static Registry instance;
  return instance;
}

// The host services the entry received; nullptr before the entry has run.
inline const krino_host* host() { return registry().host; }

inline bool register_component(int32_t kind, const char* id, const char* name, const char* version,
                               const char* description, uint64_t capabilities, const char* schema,
                               const void* vtable) {
  krino_component c{};
  c.struct_size = sizeof(krino_component);
  c.kind = kind;
  c.id = id;
  c.name = name;
  c.version = version;
  c.description = description;
  c.capabilities = capabilities;
  c.config_schema = schema;
  c.vtable = vtable;
  registry().components.push_back(c);
  return true;
}

}  // namespace detail
}  // namespace krino

#endif  // KRINO_PLUGIN_REGISTRY_HPP
