// The `langsmith` trace extractor: LangSmith runs (run_reader.hpp for the documents it accepts).
//   conversation  the last LLM run's input messages (OpenAI dicts as LangSmith's OpenAI wrapper
//                 stores them, or LangChain messages, also batched as [[...]]) or prompts, then its
//                 reply: an OpenAI reply body (choices) or LangChain generations
//   tool calls    the conversation's calls bound to its tool messages; tool runs fill in the results
//                 of calls of their name still without one, and tool runs no call mentions are
//                 added as calls (arguments: the run's inputs; result: its outputs or error)
//   usage         every LLM run: outputs.usage_metadata (what LangSmith keeps in place of the
//                 provider's usage), outputs.usage, llm_output.token_usage, or the reply message's
//                 usage_metadata; the model from the reply, else extra.metadata.ls_model_name
//   latency       the root run's start to end (else the earliest start to the latest end)
//   without LLM messages, the root run's inputs and outputs ("input"/"output" or the only string)
#ifndef KRINO_LANGSMITH_LANGSMITH_EXTRACTOR_HPP
#define KRINO_LANGSMITH_LANGSMITH_EXTRACTOR_HPP

#include <krino/trace/trace.hpp>

#include <boost/json.hpp>

namespace krino::langsmith {

class LangSmithExtractor {
 public:
  // 95 for an ingestion batch ({"post", "patch"}), 90 for runs (a run, a list, {"runs"}), 0 otherwise.
  static int detect(const boost::json::value& raw);
  static trace::Trace extract(const boost::json::value& raw);
};

}  // namespace krino::langsmith

#endif  // KRINO_LANGSMITH_LANGSMITH_EXTRACTOR_HPP
