// krino-langsmith: the trace extractor for LangSmith runs. Shapes, detection and conventions:
// docs/plugins/traces.md.
#include "langsmith_extractor.hpp"

#include <krino/plugin.hpp>

KRINO_TRACE_EXTRACTOR(krino::langsmith::LangSmithExtractor, "krino.langsmith", "langsmith", "1.0.0",
                      "LangSmith runs: ingestion batches (post/patch), runs, run lists and run trees",
                      KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, nullptr);

KRINO_PLUGIN("krino.langsmith", "langsmith", "1.0.0", "krino", "Apache-2.0",
             "Trace extractor for LangSmith runs (OpenAI and LangChain message formats)");
