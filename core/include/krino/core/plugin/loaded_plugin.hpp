#pragma once
// A plugin library held open for the life of the process, with its descriptor read and checked.
#include "krino/core/plugin/component.hpp"

#include <boost/dll/shared_library.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace krino::core {

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
};

}  // namespace krino::core
