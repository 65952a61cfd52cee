#include "langsmith_extractor.hpp"

#include "langchain_messages.hpp"
#include "run_reader.hpp"

#include <krino/json_text.hpp>
#include <krino/plugin.hpp>
#include <krino/support/trace/document_shape.hpp>
#include <krino/support/trace/openai_messages.hpp>
#include <krino/support/trace/tool_arguments.hpp>
#include <krino/support/trace/trace_builder.hpp>
#include <krino/support/trace/usage.hpp>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace krino::langsmith {
namespace {

const boost::json::object& section(const Run& run, const char* key) {
  static const boost::json::object empty;
  const boost::json::object* found = trace::find_object(run.run, key);
  return found != nullptr ? *found : empty;
}

// The first generation of an LLM run's LangChain outputs: {"generations": [[{"text", "message"}]]}.
const boost::json::object* first_generation(const boost::json::object& outputs) {
  const boost::json::array* generations = trace::find_array(outputs, "generations");
  if (generations == nullptr || generations->empty()) return nullptr;
  const boost::json::value* first = &generations->front();
  if (first->is_array()) {
    if (first->get_array().empty()) return nullptr;
    first = &first->get_array().front();
  }
  return first->is_object() ? &first->get_object() : nullptr;
}

bool has_llm_messages(const Run& run) {
  const boost::json::object& inputs = section(run, "inputs");
  const boost::json::object& outputs = section(run, "outputs");
  return inputs.contains("messages") || inputs.contains("prompts") || outputs.contains("choices") ||
         outputs.contains("generations");
}

void add_messages(trace::TraceBuilder& builder, const boost::json::array& messages) {
  const boost::json::array* list = &messages;
  // LangChain's chat model runs take a batch: [[messages of prompt 1], [prompt 2], ...].
  if (!messages.empty() && messages.front().is_array()) {
    if (messages.size() > 1)
      builder.note("the LLM run holds a batch of " + std::to_string(messages.size()) + " prompts; only the first is part of the trace");
    list = &messages.front().get_array();
  }
  std::size_t index = 0;
  for (const boost::json::value& message : *list) add_langchain_message(builder, message, "message " + std::to_string(index++));
}

void read_llm_conversation(trace::TraceBuilder& builder, const Run& run) {
  const boost::json::object& inputs = section(run, "inputs");
  if (const boost::json::array* messages = trace::find_array(inputs, "messages")) add_messages(builder, *messages);
  else if (const boost::json::array* prompts = trace::find_array(inputs, "prompts"))
    for (const boost::json::value& prompt : *prompts) builder.message("user", trace::content_text(&prompt));
  const boost::json::object& outputs = section(run, "outputs");
  if (outputs.contains("choices")) {
    trace::add_chat_completion(builder, outputs);
  } else if (const boost::json::object* generation = first_generation(outputs)) {
    if (const boost::json::value* message = generation->if_contains("message"); message != nullptr && message->is_object())
      add_langchain_message(builder, *message, "the reply");
    else builder.assistant(trace::string_member(*generation, "text"));
  }
  const std::string error = trace::string_member(run.run, "error");
  if (!error.empty()) builder.note("LLM run '" + run.name + "' failed: " + error);
}

trace::ModelCall llm_model_call(const Run& run) {
  const boost::json::object& outputs = section(run, "outputs");
  trace::ModelCall call = trace::read_model_call(outputs);
  // The reply message's usage_metadata has the cache and reasoning details that llm_output's
  // token_usage lacks; LangSmith's own outputs.usage_metadata wins over both.
  if (const boost::json::object* generation = first_generation(outputs); generation != nullptr && !outputs.contains("usage_metadata"))
    if (const boost::json::value* message = generation->if_contains("message")) {
      trace::ModelCall from_message = message_model_call(*message);
      if (!from_message.usage.empty()) call.usage = from_message.usage;
      if (call.model.empty()) call.model = from_message.model;
    }
  if (call.model.empty())
    if (const boost::json::object* llm_output = trace::find_object(outputs, "llm_output"))
      call.model = trace::string_member(*llm_output, "model_name");
  const boost::json::object& extra = section(run, "extra");
  if (const boost::json::object* metadata = trace::find_object(extra, "metadata")) {
    call.request_model = trace::string_member(*metadata, "ls_model_name");
    if (call.model.empty()) call.model = call.request_model;
  }
  if (call.request_model.empty()) call.request_model = trace::string_member(section(run, "inputs"), "model");
  if (call.request_model == call.model) call.request_model.clear();
  return call;
}

// A run's single meaningful value in a section: `key` when present, else its only member.
const boost::json::value* main_value(const boost::json::object& section, const char* key) {
  if (const boost::json::value* value = section.if_contains(key)) return value;
  if (section.size() == 1) return &section.begin()->value();
  return nullptr;
}

// Tool runs pair with the conversation's calls of their name in order (the k-th run of a tool
// with its k-th call): they fill in a result the conversation lacks, and mark failures.
void read_tool_runs(trace::TraceBuilder& builder, const std::vector<Run>& runs) {
  std::set<const agent::ToolCall*> paired;
  for (const Run& run : runs) {
    if (run.run_type != "tool") continue;
    const boost::json::object& outputs = section(run, "outputs");
    const std::string error = trace::string_member(run.run, "error");
    const boost::json::value* output = main_value(outputs, "output");
    agent::ToolCall* known = nullptr;
    for (agent::ToolCall* call : builder.conversation_calls())
      if (call->name == run.name && paired.insert(call).second) {
        known = call;
        break;
      }
    if (known != nullptr) {
      if (!known->result && output != nullptr) known->result = trace::text_or_compact_json(output);
      else if (!known->result && !error.empty()) known->result = error;
      if (!error.empty()) known->metadata["isError"] = true;
      continue;
    }
    if (run.name.empty()) continue;
    // A tool run's inputs: {"input": "<arguments as text>"} from LangChain tools, else the arguments.
    const boost::json::object& inputs = section(run, "inputs");
    agent::ToolCall call;
    if (inputs.size() == 1 && inputs.contains("input")) {
      const boost::json::value& input = inputs.at("input");
      call = trace::make_tool_call("", run.name, &input);
      if (!call.metadata.empty()) {  // plain text, not JSON: the text is the one argument
        call.metadata.clear();
        call.arguments["input"] = input;
      }
    } else {
      const boost::json::value arguments(inputs);
      call = trace::make_tool_call("", run.name, &arguments);
    }
    if (output != nullptr) call.result = trace::text_or_compact_json(output);
    else if (!error.empty()) call.result = error;
    if (!error.empty()) call.metadata["isError"] = true;
    builder.standalone_call(std::move(call));
  }
}

// The root runs: no parent, or a parent outside the document.
std::vector<const Run*> roots(const std::vector<Run>& runs) {
  std::set<std::string> ids;
  for (const Run& run : runs) ids.insert(run.id);
  std::vector<const Run*> out;
  for (const Run& run : runs)
    if (run.parent_id.empty() || ids.count(run.parent_id) == 0) out.push_back(&run);
  return out;
}

std::optional<double> latency_ms(const std::vector<Run>& runs) {
  const std::vector<const Run*> top = roots(runs);
  if (top.size() == 1 && top.front()->start_us && top.front()->end_us)
    return static_cast<double>(*top.front()->end_us - *top.front()->start_us) / 1000.0;
  std::optional<int64_t> first;
  std::optional<int64_t> last;
  for (const Run& run : runs) {
    if (!run.start_us || !run.end_us) continue;
    first = first ? std::min(*first, *run.start_us) : *run.start_us;
    last = last ? std::max(*last, *run.end_us) : *run.end_us;
  }
  if (!first) return std::nullopt;
  return static_cast<double>(*last - *first) / 1000.0;
}

}  // namespace

int LangSmithExtractor::detect(const boost::json::value& raw) {
  if (raw.is_object() && (raw.get_object().contains("post") || raw.get_object().contains("patch"))) {
    const std::optional<std::vector<Run>> runs = read_runs(raw);
    return runs && !runs->empty() ? 95 : 0;
  }
  const std::optional<std::vector<Run>> runs = read_runs(raw);
  return runs && !runs->empty() ? 90 : 0;
}

trace::Trace LangSmithExtractor::extract(const boost::json::value& raw) {
  const std::optional<std::vector<Run>> runs = read_runs(raw);
  if (!runs || runs->empty())
    throw invalid_argument(
        "not a LangSmith trace: expected an ingestion batch ({\"post\": [runs], \"patch\": [runs]}), a run "
        "({\"run_type\", \"inputs\", \"outputs\", ...}), a list of runs or {\"runs\": [...]}; found " +
        trace::describe_document(raw));
  trace::TraceBuilder builder;
  const Run* source = nullptr;
  for (const Run& run : *runs)
    if (run.run_type == "llm" && has_llm_messages(run)) source = &run;
  if (source != nullptr) read_llm_conversation(builder, *source);
  read_tool_runs(builder, *runs);
  for (const Run& run : *runs)
    if (run.run_type == "llm") {
      trace::ModelCall call = llm_model_call(run);
      if (!call.model.empty() || !call.usage.empty()) builder.model_call(std::move(call));
    }
  builder.set_latency(latency_ms(*runs));
  if (!builder.has_turns()) {
    const std::vector<const Run*> top = roots(*runs);
    if (!top.empty()) {
      if (const boost::json::value* input = main_value(section(*top.front(), "inputs"), "input"))
        builder.message("user", trace::text_or_compact_json(input));
      if (const boost::json::value* output = main_value(section(*top.front(), "outputs"), "output"))
        builder.assistant(trace::text_or_compact_json(output));
    }
  }
  for (const Run& run : *runs) {
    const std::string error = trace::string_member(run.run, "error");
    if (!error.empty() && run.run_type != "llm" && run.run_type != "tool")
      builder.note("run '" + run.name + "' failed: " + error);
  }
  return builder.finish();
}

}  // namespace krino::langsmith
