// krino-openai: trace extractors for OpenAI's two APIs. Shapes, detection and conventions:
// docs/plugins/traces.md.
#include "chat_completions_extractor.hpp"
#include "responses_extractor.hpp"

#include <krino/plugin.hpp>

KRINO_TRACE_EXTRACTOR(krino::openai::ChatCompletionsExtractor, "krino.openai_chat", "openai_chat", "1.0.0",
                      "OpenAI Chat Completions: reply bodies, request bodies, message lists (tau-bench), recorded exchanges",
                      KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, nullptr);
KRINO_TRACE_EXTRACTOR(krino::openai::ResponsesExtractor, "krino.openai_responses", "openai_responses", "1.0.0",
                      "OpenAI Responses: response bodies, request bodies, input item lists, recorded exchanges",
                      KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, nullptr);

KRINO_PLUGIN("krino.openai", "openai", "1.0.0", "krino", "Apache-2.0",
             "Trace extractors for the OpenAI Chat Completions and Responses APIs");
