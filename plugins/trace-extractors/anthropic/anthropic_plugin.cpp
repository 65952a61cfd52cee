// krino-anthropic: the trace extractor for Anthropic's Messages API. Shapes, detection and
// conventions: docs/plugins/traces.md.
#include "messages_extractor.hpp"

#include <krino/plugin.hpp>

KRINO_TRACE_EXTRACTOR(krino::anthropic::MessagesExtractor, "krino.anthropic", "anthropic", "1.0.0",
                      "Anthropic Messages: reply bodies, request bodies, message lists, recorded exchanges",
                      KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, nullptr);

KRINO_PLUGIN("krino.anthropic", "anthropic", "1.0.0", "krino", "Apache-2.0",
             "Trace extractor for the Anthropic Messages API");
