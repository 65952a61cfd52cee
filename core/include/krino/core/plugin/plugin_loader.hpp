#pragma once
// Loads one plugin library: Boost.DLL with RTLD_NOW | RTLD_LOCAL, the entry symbol, ABI
// negotiation, and a checked copy of the descriptor. Never throws: a failure is a one-line reason.
#include "krino/core/plugin/loaded_plugin.hpp"

#include <krino/plugin.h>

#include <memory>
#include <string>
#include <variant>

namespace krino::core {

// Either the loaded plugin or the reason it could not be loaded (without the path: the caller
// prefixes it).
using LoadResult = std::variant<std::unique_ptr<LoadedPlugin>, std::string>;

LoadResult load_plugin(const std::filesystem::path& path, const krino_host_info& host_info);

}  // namespace krino::core
