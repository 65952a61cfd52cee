#pragma once
// Loads one plugin library: Boost.DLL with RTLD_NOW | RTLD_LOCAL, the entry symbol, ABI
// negotiation, and a checked copy of the descriptor. Never throws: a failure is a status
// (FAILED_PRECONDITION) with a one-line reason.
#include "krino/core/common/status.hpp"
#include "krino/core/plugin/loaded_plugin.hpp"

#include <krino/plugin.h>

#include <memory>
#include <string>
#include <variant>

namespace krino::core {

// Either the loaded plugin or why it could not be loaded (the reason without the path: the caller
// prefixes it).
using LoadResult = StatusOr<std::unique_ptr<LoadedPlugin>>;

LoadResult load_plugin(const std::filesystem::path& path, const krino_host_info& host_info);

}  // namespace krino::core
