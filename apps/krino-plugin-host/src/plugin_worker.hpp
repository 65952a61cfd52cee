#pragma once
// The worker's side of krino.evaluatorworker/1 for one plugin evaluator: the handshake from the
// component's descriptor, `configure` creates the instance, each request calls evaluate once.
#include "krino/core/plugin/component.hpp"

#include <krino/plugin.h>

#include <cstdio>
#include <istream>

namespace krino::plugin_host {

// Serves requests from `in` until it ends; answers go to `out`, one line each. Returns the
// process's exit code: 0 at the end of input, 3 after answering a request that left the worker
// out of memory (a fresh worker then takes the next one).
int serve(const core::Component& component, const krino_host* host, std::istream& in, std::FILE* out);

}  // namespace krino::plugin_host
