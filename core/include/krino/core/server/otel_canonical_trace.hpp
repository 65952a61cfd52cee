#pragma once
// The canonical trace beside a stored trace's raw spans: the `otel` trace extractor (the plugin
// `krino run` uses for OpenTelemetry spans) reads the API's span list, so the server computes no
// trace of its own (DESIGN.md §9: nothing is computed two ways).
#include "krino/core/server_api/trace_routes.hpp"

namespace krino::core {
class PluginRegistry;
}

namespace krino::core::server {

// The extractor named `otel` in `plugins` (which must outlive the function), or an empty function
// when none is loaded (the trace page then says so).
server_api::CanonicalTraceFunction otel_canonical_trace(const PluginRegistry& plugins);

}  // namespace krino::core::server
