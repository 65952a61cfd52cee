// Builds a canonical trace (trace.hpp) message by message, the way every extractor needs it:
// assistant messages with their calls, tool results bound to those calls, reasoning, usage.
// Header-only, C++17.
//
// Binding rule (per-turn windowing): a tool result binds only to a call of the latest assistant
// message before it, the window that ends at the next assistant message. Within the window it takes
// the first call without a result whose id is the result's id; failing that, the first unanswered
// call of its tool name (unless both have ids, which then differ); a result with neither id nor
// name takes the first unanswered call. A result that finds no call stays a
// tool message of the conversation and is noted. Real traces reuse call ids across turns (49 of the
// 200 tau-bench trajectories do): a result is never bound to a call of another turn with the same id.
#ifndef KRINO_SUPPORT_TRACE_TRACE_BUILDER_HPP
#define KRINO_SUPPORT_TRACE_TRACE_BUILDER_HPP

#include <krino/trace/trace.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace krino::trace {

class TraceBuilder {
 public:
  // A system, user or other message without calls.
  void message(std::string role, std::optional<std::string> content) {
    Turn turn;
    turn.role = std::move(role);
    turn.content = std::move(content);
    trace_.turns.push_back(std::move(turn));
  }

  // An assistant message, opening a new window for tool results. A message that calls tools and
  // whose text is blank ("" is what several APIs send) said nothing: its content is null.
  void assistant(std::optional<std::string> content, std::vector<agent::ToolCall> calls = {}) {
    if (content && !calls.empty() && content->find_first_not_of(" \t\r\n") == std::string::npos) content.reset();
    Turn turn;
    turn.role = "assistant";
    turn.content = std::move(content);
    turn.tool_calls = std::move(calls);
    trace_.turns.push_back(std::move(turn));
    window_ = trace_.turns.size() - 1;
  }

  // What a tool returned. `is_error`: the source flags the result as a failure (Anthropic's
  // is_error, a tool span's error status); it is kept in the bound call's metadata as "isError".
  // Returns whether a call took the result.
  bool tool_result(std::string call_id, std::string name, std::string content, bool is_error = false) {
    agent::ToolCall* call = find_call(call_id, name);
    if (call != nullptr) {
      call->result = content;
      if (is_error) call->metadata["isError"] = true;
      if (name.empty()) name = call->name;
    } else {
      std::string what = call_id.empty() ? (name.empty() ? std::string("a tool result") : "a result of tool '" + name + "'")
                                         : "the result for call id '" + call_id + "'";
      note(what + " has no unanswered call in the assistant message before it; it is kept as a tool message only");
    }
    Turn turn;
    turn.role = "tool";
    turn.content = std::move(content);
    turn.tool_call_id = std::move(call_id);
    turn.name = std::move(name);
    trace_.turns.push_back(std::move(turn));
    return call != nullptr;
  }

  // A call recorded outside the conversation (a tool span, a tool run) with its result, if known.
  void standalone_call(agent::ToolCall call) { extra_calls_.push_back(std::move(call)); }

  // The calls made so far, in conversation order (for extractors that enrich them from other
  // records, such as tool spans).
  std::vector<agent::ToolCall*> conversation_calls() {
    std::vector<agent::ToolCall*> calls;
    for (Turn& turn : trace_.turns)
      for (agent::ToolCall& call : turn.tool_calls) calls.push_back(&call);
    return calls;
  }

  void reasoning(std::string text) {
    if (!text.empty()) trace_.reasoning_steps.push_back(std::move(text));
  }

  // One model reply; its usage adds to the trace's, and its model becomes the trace's model.
  void model_call(ModelCall call) {
    if (!call.model.empty()) trace_.model = call.model;
    else if (!call.request_model.empty()) trace_.model = call.request_model;
    trace_.usage.add(call.usage);
    if (call.cost_usd) cost_ = cost_.value_or(0.0) + *call.cost_usd;
    trace_.model_calls.push_back(std::move(call));
  }

  void set_model(std::string model) { trace_.model = std::move(model); }
  void set_usage(Usage usage) { trace_.usage = std::move(usage); }
  void set_cost(std::optional<double> cost_usd) { cost_ = cost_usd; }
  void set_latency(std::optional<double> latency_ms) { trace_.latency_ms = latency_ms; }
  // Overrides the final response (default: the content of the last assistant message).
  void set_output(boost::json::value output) { output_ = std::move(output); }

  // Something the extractor left out or could not read, said in a sentence.
  void note(std::string text) {
    for (const std::string& existing : trace_.notes)
      if (existing == text) return;
    trace_.notes.push_back(std::move(text));
  }

  bool has_turns() const { return !trace_.turns.empty(); }
  // Whether anything but turns was recorded: calls outside the conversation, or model calls.
  bool has_calls_or_usage() const { return !extra_calls_.empty() || !trace_.model_calls.empty(); }
  const std::vector<Turn>& turns() const { return trace_.turns; }

  // The trace: tool calls are every assistant message's calls in order, then the standalone ones;
  // the output is the content of the last assistant message (null when it has none) unless set.
  Trace finish() {
    Trace out = std::move(trace_);
    for (const Turn& turn : out.turns)
      out.tool_calls.insert(out.tool_calls.end(), turn.tool_calls.begin(), turn.tool_calls.end());
    out.tool_calls.insert(out.tool_calls.end(), extra_calls_.begin(), extra_calls_.end());
    if (output_) {
      out.output = std::move(*output_);
    } else {
      out.output = nullptr;
      for (auto turn = out.turns.rbegin(); turn != out.turns.rend(); ++turn) {
        if (turn->role != "assistant") continue;
        if (turn->content) out.output = *turn->content;
        break;
      }
    }
    out.cost_usd = cost_;
    *this = TraceBuilder();
    return out;
  }

 private:
  agent::ToolCall* find_call(const std::string& call_id, const std::string& name) {
    if (!window_) return nullptr;
    std::vector<agent::ToolCall>& calls = trace_.turns[*window_].tool_calls;
    if (!call_id.empty())
      for (agent::ToolCall& call : calls)
        if (!call.result && call.id == call_id) return &call;
    // By name, unless both sides have ids (which then differ).
    for (agent::ToolCall& call : calls)
      if (!call.result && (call.id.empty() || call_id.empty()) && !name.empty() && call.name == name) return &call;
    if (call_id.empty() && name.empty())
      for (agent::ToolCall& call : calls)
        if (!call.result) return &call;
    return nullptr;
  }

  Trace trace_;
  std::vector<agent::ToolCall> extra_calls_;
  std::optional<std::size_t> window_;  // index of the latest assistant turn
  std::optional<boost::json::value> output_;
  std::optional<double> cost_;
};

}  // namespace krino::trace

#endif  // KRINO_SUPPORT_TRACE_TRACE_BUILDER_HPP
