// krino C++ helper: the registry of what a plugin declares (its components, and the deinit,
// extensions and minimum host minor of KRINO_PLUGIN_*), filled by the registration macros while the
// library's static initializers run, read by the entry point (<krino/plugin/entry.hpp>).
//
// Threads: written only during static initialization (dlopen, before the entry is called), then
// read-only; the entry and deinit run on the host's main thread. Ownership: the plugin's; the
// descriptor and component array handed to the host live in it until the library is unloaded,
// which is after deinit, as plugin.h requires.
#ifndef KRINO_PLUGIN_REGISTRY_HPP
#define KRINO_PLUGIN_REGISTRY_HPP

#include <krino/plugin.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

// A name unique within the translation unit, for the registration macros' static variables.
#define KRINO_DETAIL_CONCAT2(a, b) a##b
#define KRINO_DETAIL_CONCAT(a, b) KRINO_DETAIL_CONCAT2(a, b)

namespace krino {
namespace detail {

// A plugin extension declared with KRINO_PLUGIN_EXTENSION.
struct Extension {
  const char* id;     // versioned: "com.acme.words.stats/1"
  const void* table;  // the plugin's, static
};

struct Registry {
  std::vector<krino_component> components;
  const krino_host* host = nullptr;
  krino_plugin_descriptor descriptor{};
  // Declared with KRINO_PLUGIN_DEINIT, KRINO_PLUGIN_MIN_HOST_ABI_MINOR and KRINO_PLUGIN_EXTENSION.
  std::vector<void (*)()> deinits;
  uint16_t min_host_abi_minor = 0;
  std::vector<Extension> extensions;
  // A declaration the entry refuses to load with (the first found), e.g. an extension id twice.
  std::string problem;
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

// The config schema component class T was registered with, so its trampolines can give the Config
// the schema's defaults even when the host did not fill them (a host older than the defaults rule).
// nullptr before registration, and for a class registered twice with different schemas: the host's
// filled defaults are then all that instance reads.
template <class T>
struct RegisteredSchema {
  const char* text = nullptr;
  bool ambiguous = false;
  const char* usable() const { return ambiguous ? nullptr : text; }
};

template <class T>
inline RegisteredSchema<T>& registered_schema() {
  static RegisteredSchema<T> instance;
  return instance;
}

// register_component for a component backed by class T (evaluators, resolvers, reporters).
template <class T>
inline bool register_component_of(int32_t kind, const char* id, const char* name, const char* version,
                                  const char* description, uint64_t capabilities, const char* schema,
                                  const void* vtable) {
  RegisteredSchema<T>& registered = registered_schema<T>();
  if (registered.text != nullptr && (schema == nullptr || std::string_view(registered.text) != schema))
    registered.ambiguous = true;
  registered.text = schema;
  return register_component(kind, id, name, version, description, capabilities, schema, vtable);
}

}  // namespace detail
}  // namespace krino

#endif  // KRINO_PLUGIN_REGISTRY_HPP
