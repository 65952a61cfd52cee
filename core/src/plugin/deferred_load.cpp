// Opening a probed plugin's library in this process on first use (LoadedPlugin::deferred).
#include "krino/core/common/error.hpp"
#include "krino/core/plugin/component.hpp"
#include "krino/core/plugin/loaded_plugin.hpp"
#include "krino/core/plugin/plugin_loader.hpp"

namespace krino::core {
namespace {

// Fills `owner` from the library just loaded; the reason when the library no longer matches the
// probe that registered it (it was replaced between the probe and now).
std::string complete_deferred(LoadedPlugin& owner, LoadedPlugin& opened) {
  bool same = opened.id == owner.id && opened.components.size() == owner.components.size();
  for (size_t i = 0; same && i < owner.components.size(); ++i)
    same = opened.components[i].id == owner.components[i].id && opened.components[i].kind == owner.components[i].kind;
  if (!same) {
    if (opened.deinit != nullptr) opened.deinit();
    return "the library changed after it was probed (run the command again)";
  }
  for (size_t i = 0; i < owner.components.size(); ++i) {
    owner.components[i].vtable = opened.components[i].vtable;
    owner.components[i].raw = opened.components[i].raw;
  }
  owner.deinit = opened.deinit;
  owner.get_extension = opened.get_extension;
  owner.abi_minor = opened.abi_minor;
  // Last: from here the library lives as long as `owner`, which the registry keeps.
  owner.library = std::move(opened.library);
  return {};
}

}  // namespace

void LoadedPlugin::require_code() const {
  if (deferred == nullptr) return;
  DeferredLoad& load = *deferred;
  std::call_once(load.once, [&load] {
    LoadedPlugin& owner = *load.owner;
    LoadResult opened = load_plugin(owner.path, load.host_info);
    load.error = opened.ok() ? complete_deferred(owner, *opened.value()) : opened.error().message;
  });
  if (!load.error.empty()) throw config_error("plugin " + path.string() + " could not be loaded: " + load.error);
}


}  // namespace krino::core
