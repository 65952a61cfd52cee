#pragma once
// One component of a loaded plugin, as the host sees it: the plugin's descriptor data copied into
// host-owned memory, with the kind-specific vtable read through its known prefix.
#include <krino/plugin.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace krino::core {

class ConfigValidator;
struct LoadedPlugin;

enum class ComponentKind { evaluator, dataset_resolver, trace_extractor, reporter };

std::string_view component_kind_name(ComponentKind kind);

// The names of the KRINO_CAP_* bits set in `capabilities` ("thread-safe", "needs-judge"...), in bit
// order: what `krino plugins info` prints and the MCP tools return.
std::vector<std::string_view> capability_names(uint64_t capabilities);
// The bit of one of those names; 0 for a name it does not know.
uint64_t capability_from_name(std::string_view name);

struct Component {
  ComponentKind kind = ComponentKind::evaluator;
  std::string id;
  std::string name;
  std::string version;
  std::string description;
  uint64_t capabilities = 0;
  std::string config_schema;  // JSON text; "{}" when the plugin gave none
  // A dataset resolver's comma-separated URI schemes and file extensions, copied from its vtable
  // (or its probe), so that choosing a resolver for a URI opens no library but the chosen one.
  std::string schemes;
  std::string extensions;
  const LoadedPlugin* plugin = nullptr;
  const krino_component* raw = nullptr;  // the plugin's own struct, for passing back

  // Exactly one is filled, matching `kind`.
  std::variant<krino_evaluator_vtable, krino_dataset_resolver_vtable, krino_trace_extractor_vtable,
               krino_reporter_vtable>
      vtable;

  bool has(uint64_t capability) const { return (capabilities & capability) != 0; }
  // Checks options against config_schema. Built on first use, once, from any thread: building a
  // validator costs more than the rest of discovery, and most components a command finds are never
  // configured. Throws std::invalid_argument when the schema is unusable (the loader has checked).
  const ConfigValidator& validator() const;
  // Uses a validator built already (the loader builds one to refuse an unusable schema).
  void set_validator(std::shared_ptr<const ConfigValidator> built);
  // The vtables open the plugin's library first when discovery only probed it
  // (LoadedPlugin::require_code): whatever calls into a plugin goes through one of these.
  const krino_evaluator_vtable& evaluator() const { require_code(); return std::get<krino_evaluator_vtable>(vtable); }
  const krino_dataset_resolver_vtable& resolver() const { require_code(); return std::get<krino_dataset_resolver_vtable>(vtable); }
  const krino_trace_extractor_vtable& extractor() const { require_code(); return std::get<krino_trace_extractor_vtable>(vtable); }
  const krino_reporter_vtable& reporter() const { require_code(); return std::get<krino_reporter_vtable>(vtable); }

 private:
  void require_code() const;

  struct ValidatorSlot {
    std::once_flag once;
    std::shared_ptr<const ConfigValidator> built;
  };
  // Shared by copies of the component, which have the same schema.
  std::shared_ptr<ValidatorSlot> validator_slot_ = std::make_shared<ValidatorSlot>();
};

}  // namespace krino::core
