// krino-otel: the trace extractor for OpenTelemetry GenAI spans. Shapes, detection and
// conventions: docs/plugins/traces.md.
#include "otel_extractor.hpp"

#include <krino/plugin.hpp>

KRINO_TRACE_EXTRACTOR(krino::otel::OtelExtractor, "krino.otel", "otel", "1.0.0",
                      "OpenTelemetry GenAI spans: OTLP/JSON exports, span lists, span attributes, GenAI message lists",
                      KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, nullptr);

KRINO_PLUGIN("krino.otel", "otel", "1.0.0", "krino", "Apache-2.0",
             "Trace extractor for OpenTelemetry GenAI semantic-convention spans in OTLP/JSON");
