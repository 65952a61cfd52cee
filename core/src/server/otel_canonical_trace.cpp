#include "krino/core/server/otel_canonical_trace.hpp"

#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/trace/trace_extractor.hpp"

namespace krino::core::server {

server_api::CanonicalTraceFunction otel_canonical_trace(const PluginRegistry& plugins) {
  const Component* component = plugins.try_find(ComponentKind::trace_extractor, "otel");
  if (component == nullptr) return {};
  return [extractor = TraceExtractor(*component)](std::string_view spans_json) {
    server_api::CanonicalTraceResult result;
    StatusOr<std::string> extracted = extractor.extract(spans_json);
    if (extracted.ok()) result.trace = std::move(extracted.value());
    else result.error = "the otel trace extractor: " + extracted.error().message;
    return result;
  };
}

}  // namespace krino::core::server
