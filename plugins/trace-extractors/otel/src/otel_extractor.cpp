#include "otel_extractor.hpp"

#include "genai_messages.hpp"
#include "otlp_span_reader.hpp"

#include <krino/json_text.hpp>
#include <krino/plugin.hpp>
#include <krino/support/trace/document_shape.hpp>
#include <krino/support/trace/tool_arguments.hpp>
#include <krino/support/trace/trace_builder.hpp>
#include <krino/support/trace/usage.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace krino::otel {
namespace {

constexpr const char* kInputMessages = "gen_ai.input.messages";
constexpr const char* kOutputMessages = "gen_ai.output.messages";
constexpr const char* kSystemInstructions = "gen_ai.system_instructions";

// What one span says, with the GenAI content an instrumentation put on an event instead of the span.
struct SpanView {
  const Span* span = nullptr;
  boost::json::object attributes;

  std::string operation() const { return trace::string_member(attributes, "gen_ai.operation.name"); }
  bool has_messages() const { return attributes.contains(kInputMessages) || attributes.contains(kOutputMessages); }
  bool is_model_call() const {
    const std::string op = operation();
    return op == "chat" || op == "text_completion" || op == "generate_content";
  }
  bool is_tool_call() const { return operation() == "execute_tool" || attributes.contains("gen_ai.tool.name"); }
  bool reports_usage() const {
    for (const char* key : {"gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "gen_ai.usage.prompt_tokens",
                            "gen_ai.usage.completion_tokens"})
      if (attributes.contains(key)) return true;
    return false;
  }
  std::string label() const {
    if (span->span_id.empty()) return span->name.empty() ? std::string("the span") : "span '" + span->name + "'";
    return "span " + span->span_id + (span->name.empty() ? "" : " '" + span->name + "'");
  }
};

SpanView view_of(const Span& span) {
  SpanView view{&span, span.attributes};
  for (const SpanEvent& event : span.events)
    for (const char* key : {kInputMessages, kOutputMessages, kSystemInstructions})
      if (!view.attributes.contains(key))
        if (const boost::json::value* value = event.attributes.if_contains(key)) view.attributes[key] = *value;
  return view;
}

// Spans in start order; spans without a start keep their document order, after the timed ones.
std::vector<SpanView> ordered_views(const SpanDocument& document) {
  std::vector<SpanView> views;
  views.reserve(document.spans.size());
  for (const Span& span : document.spans) views.push_back(view_of(span));
  std::stable_sort(views.begin(), views.end(), [](const SpanView& a, const SpanView& b) {
    if (a.span->start_ns.has_value() != b.span->start_ns.has_value()) return a.span->start_ns.has_value();
    return a.span->start_ns.value_or(0) < b.span->start_ns.value_or(0);
  });
  return views;
}

// The span whose messages tell the conversation: the last model span that records messages, else
// the last span of any kind that does ("last" by end time, then by start order).
const SpanView* conversation_source(const std::vector<SpanView>& views) {
  const SpanView* best = nullptr;
  bool best_is_model = false;
  for (const SpanView& view : views) {
    if (!view.has_messages()) continue;
    const bool model = view.is_model_call();
    if (best != nullptr && best_is_model && !model) continue;
    if (best == nullptr || (model && !best_is_model) ||
        view.span->end_ns.value_or(0) >= best->span->end_ns.value_or(0)) {
      best = &view;
      best_is_model = model;
    }
  }
  return best;
}

void read_conversation(trace::TraceBuilder& builder, const SpanView& source) {
  const std::string where = source.label();
  if (auto instructions = json_attribute(source.attributes, kSystemInstructions, builder, where))
    add_system_instructions(builder, *instructions);
  if (auto input = json_attribute(source.attributes, kInputMessages, builder, where)) {
    if (input->is_array()) add_genai_messages(builder, input->get_array(), std::string(kInputMessages));
    else builder.note(where + ": " + kInputMessages + " is not a list of messages and was left out");
  }
  if (auto output = json_attribute(source.attributes, kOutputMessages, builder, where)) {
    if (!output->is_array()) {
      builder.note(where + ": " + kOutputMessages + " is not a list of messages and was left out");
    } else if (!output->get_array().empty()) {
      const boost::json::array& choices = output->get_array();
      add_genai_messages(builder, boost::json::array{choices.front()}, std::string(kOutputMessages));
      if (choices.size() > 1)
        builder.note(std::string(kOutputMessages) + " holds " + std::to_string(choices.size()) +
                     " choices; only the first is part of the trace");
    }
  }
}

// execute_tool spans: results for the conversation's calls, or calls of their own.
void read_tool_spans(trace::TraceBuilder& builder, const std::vector<SpanView>& views) {
  for (const SpanView& view : views) {
    if (!view.is_tool_call()) continue;
    const boost::json::object& a = view.attributes;
    const std::string id = trace::text_or_compact_json(a.if_contains("gen_ai.tool.call.id"));
    const boost::json::value* result = a.if_contains("gen_ai.tool.call.result");
    const bool failed = view.span->status == "ERROR" || a.contains("error.type");
    agent::ToolCall* known = nullptr;
    if (!id.empty())
      for (agent::ToolCall* call : builder.conversation_calls())
        if (call->id == id) known = call;
    if (known != nullptr) {
      if (!known->result && result != nullptr && !result->is_null()) known->result = trace::text_or_compact_json(result);
      if (failed) known->metadata["isError"] = true;
      continue;
    }
    std::string name = trace::string_member(a, "gen_ai.tool.name");
    if (name.empty()) {
      builder.note(view.label() + " executes a tool without gen_ai.tool.name; it was left out");
      continue;
    }
    agent::ToolCall call = trace::make_tool_call(id, std::move(name), a.if_contains("gen_ai.tool.call.arguments"));
    if (result != nullptr && !result->is_null()) call.result = trace::text_or_compact_json(result);
    else if (failed && !view.span->status_message.empty()) call.result = view.span->status_message;
    if (failed) call.metadata["isError"] = true;
    builder.standalone_call(std::move(call));
  }
}

trace::Usage span_usage(const boost::json::object& a) {
  trace::Usage usage;
  usage.tokens_in = trace::count_member(a, "gen_ai.usage.input_tokens");
  if (!usage.tokens_in) usage.tokens_in = trace::count_member(a, "gen_ai.usage.prompt_tokens");
  usage.tokens_out = trace::count_member(a, "gen_ai.usage.output_tokens");
  if (!usage.tokens_out) usage.tokens_out = trace::count_member(a, "gen_ai.usage.completion_tokens");
  usage.cached_tokens_in = trace::count_member(a, "gen_ai.usage.cache_read.input_tokens");
  usage.cache_creation_tokens_in = trace::count_member(a, "gen_ai.usage.cache_creation.input_tokens");
  usage.reasoning_tokens_out = trace::count_member(a, "gen_ai.usage.reasoning.output_tokens");
  return usage;
}

// Usage of the innermost spans reporting it: an ancestor of such a span is taken to aggregate it.
void read_usage(trace::TraceBuilder& builder, const std::vector<SpanView>& views) {
  std::map<std::string, const Span*> by_id;
  for (const SpanView& view : views)
    if (!view.span->span_id.empty()) by_id[view.span->span_id] = view.span;
  std::set<const Span*> aggregating;
  for (const SpanView& view : views) {
    if (!view.reports_usage()) continue;
    std::set<const Span*> seen;  // a malformed document may loop its parents
    for (auto parent = by_id.find(view.span->parent_span_id); parent != by_id.end() && seen.insert(parent->second).second;
         parent = by_id.find(parent->second->parent_span_id))
      aggregating.insert(parent->second);
  }
  for (const SpanView& view : views) {
    if (!view.reports_usage() || aggregating.count(view.span) != 0) continue;
    trace::ModelCall call;
    call.request_model = trace::string_member(view.attributes, "gen_ai.request.model");
    call.model = trace::string_member(view.attributes, "gen_ai.response.model");
    if (call.model.empty()) call.model = call.request_model;
    if (call.request_model == call.model) call.request_model.clear();
    call.usage = span_usage(view.attributes);
    builder.model_call(std::move(call));
  }
}

std::optional<double> latency_ms(const SpanDocument& document) {
  std::optional<uint64_t> first;
  std::optional<uint64_t> last;
  for (const Span& span : document.spans) {
    if (!span.start_ns || !span.end_ns) continue;
    first = first ? std::min(*first, *span.start_ns) : *span.start_ns;
    last = last ? std::max(*last, *span.end_ns) : *span.end_ns;
  }
  if (!first || *last < *first) return std::nullopt;
  return static_cast<double>(*last - *first) / 1e6;
}

// The first attribute present among `keys` in the root span, else in any span (the latest-starting
// one for the output, the earliest for the input).
std::optional<std::string> derived_field(const std::vector<SpanView>& views, std::initializer_list<const char*> keys,
                                         bool latest) {
  std::set<std::string> ids;
  for (const SpanView& view : views) ids.insert(view.span->span_id);
  const auto first_key = [&](const SpanView& view) -> std::optional<std::string> {
    for (const char* key : keys)
      if (const boost::json::value* value = view.attributes.if_contains(key); value != nullptr && !value->is_null())
        return trace::text_or_compact_json(value);
    return std::nullopt;
  };
  for (const SpanView& view : views)
    if (view.span->parent_span_id.empty() || ids.count(view.span->parent_span_id) == 0)
      if (auto found = first_key(view)) return found;
  if (latest) {
    for (auto view = views.rbegin(); view != views.rend(); ++view)
      if (auto found = first_key(*view)) return found;
  } else {
    for (const SpanView& view : views)
      if (auto found = first_key(view)) return found;
  }
  return std::nullopt;
}

}  // namespace

int OtelExtractor::detect(const boost::json::value& raw) {
  if (is_genai_message_list(raw)) return 85;
  const std::optional<SpanDocument> document = read_spans(raw);
  if (!document) return 0;
  switch (document->source) {
    case SpanSource::attribute_map: return 90;
    case SpanSource::span_list: return has_genai_attributes(*document) ? 90 : 55;
    case SpanSource::otlp: return has_genai_attributes(*document) ? 95 : 60;
  }
  return 0;
}

trace::Trace OtelExtractor::extract(const boost::json::value& raw) {
  trace::TraceBuilder builder;
  if (is_genai_message_list(raw)) {
    add_genai_messages(builder, raw.get_array(), "messages");
    return builder.finish();
  }
  const std::optional<SpanDocument> document = read_spans(raw);
  if (!document)
    throw invalid_argument(
        "not an OpenTelemetry trace: expected OTLP/JSON ('resourceSpans'), a list of spans, a map of GenAI span "
        "attributes (gen_ai.*) or a list of GenAI messages ({role, parts}); found " +
        trace::describe_document(raw));
  const std::vector<SpanView> views = ordered_views(*document);
  if (const SpanView* source = conversation_source(views)) read_conversation(builder, *source);
  read_tool_spans(builder, views);
  read_usage(builder, views);
  builder.set_latency(latency_ms(*document));
  if (!builder.has_turns()) {
    const auto input = derived_field(views, {"krino.input", "dokimos.input", "input.value", "gen_ai.prompt", "llm.input", "input", "prompt"}, false);
    const auto output = derived_field(
        views, {"krino.output", "dokimos.output", "output.value", "gen_ai.completion", "llm.output", "output", "completion"}, true);
    if (input) builder.message("user", *input);
    if (output) builder.assistant(*output);
  }
  if (!builder.has_turns() && builder.conversation_calls().empty() && !builder.has_calls_or_usage())
    builder.note("none of the " + std::to_string(document->spans.size()) + " span" +
                 (document->spans.size() == 1 ? "" : "s") +
                 " holds GenAI messages, tool calls, usage or an input/output attribute: the trace is empty");
  const std::string last_model = [&] {
    for (auto view = views.rbegin(); view != views.rend(); ++view) {
      std::string model = trace::string_member(view->attributes, "gen_ai.response.model");
      if (model.empty()) model = trace::string_member(view->attributes, "gen_ai.request.model");
      if (!model.empty()) return model;
    }
    return std::string();
  }();
  if (!last_model.empty()) builder.set_model(last_model);
  return builder.finish();
}

}  // namespace krino::otel
