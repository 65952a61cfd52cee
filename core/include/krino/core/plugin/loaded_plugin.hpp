#pragma once
// A plugin library held open for the life of the process, with its descriptor read and checked.
#include "krino/core/plugin/component.hpp"

#include <boost/dll/shared_library.hpp>

#include <krino/plugin.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace krino::core {

struct LoadedPlugin;

// A plugin described by a probe (plugin_probe.hpp) whose library this process has not opened yet.
struct DeferredLoad {
  LoadedPlugin* owner = nullptr;  // the plugin this completes
  krino_host_info host_info{};
  std::once_flag once;
  std::string error;  // why opening it failed, once it did
};

struct LoadedPlugin {
  // First member, so it is destroyed last: nothing below may outlive the code it points into.
  boost::dll::shared_library library;
  std::filesystem::path path;
  std::string id;
  std::string name;
  std::string version;
  std::string vendor;
  std::string license;
  std::string description;
  uint16_t abi_minor = 0;
  std::vector<Component> components;
  void (*deinit)() = nullptr;
  // The descriptor's plugin-extension lookup ([thread-safe]); nullptr when the plugin has none.
  const void* (*get_extension)(const char* extension_id) = nullptr;
  // Set for a plugin registered from a probe: its library is opened, and the vtables, deinit and
  // get_extension above filled in, when require_code() is first called (a component is used).
  std::unique_ptr<DeferredLoad> deferred;

  // Opens a deferred library now, once, from any thread; nothing for a plugin loaded in full.
  // Throws a configuration error naming the library when it cannot be opened or no longer matches
  // its probe.
  void require_code() const;
};

}  // namespace krino::core
