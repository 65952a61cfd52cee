#pragma once
// The worker's side of `krino plugins check`: calls one component of a loaded plugin on sample
// inputs and reports, one JSON line each on `out`: {"call": "..."} before every call into the
// plugin (so that krino can name the call a crash or a hang happened in), {"problem": "..."} for
// what the plugin's author must fix, {"note": "..."} for what was not checked and why, and
// {"done": true} at the end. krino (apps/krino/src/plugins_check_command.cpp) runs one worker per
// component under a time and a memory limit.
#include "krino/core/plugin/component.hpp"

#include <krino/plugin.h>

#include <cstdio>

namespace krino::plugin_host {

// Checks `component`; `plugin_stdout` is the descriptor the plugin's stdout now goes to (a
// temporary file), to tell whether a call wrote to it. Returns the process's exit code (0).
int check_component(const core::Component& component, const krino_host* host, std::FILE* out, int plugin_stdout);

}  // namespace krino::plugin_host
