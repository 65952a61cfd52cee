// krino-langchain4j: the trace extractor for LangChain4j's message JSON. Shapes, detection and
// conventions: docs/plugins/traces.md.
#include "langchain4j_extractor.hpp"

#include <krino/plugin.hpp>

KRINO_TRACE_EXTRACTOR(krino::langchain4j::LangChain4jExtractor, "krino.langchain4j", "langchain4j", "1.0.0",
                      "LangChain4j: chat message lists as its serializer writes them, single messages, results",
                      KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, nullptr);

KRINO_PLUGIN("krino.langchain4j", "langchain4j", "1.0.0", "krino", "Apache-2.0",
             "Trace extractor for LangChain4j chat messages (ChatMessageSerializer JSON) and results");
