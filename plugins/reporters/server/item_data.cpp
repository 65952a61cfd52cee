#include "item_data.hpp"

#include <krino/event/values.hpp>
#include <krino/json_text.hpp>

namespace krino::server {
namespace {

using krino::event::append_key;

// A section is an object or absent (krino.example/1); anything else is left out, not guessed at.
void append_section(std::string& out, std::string_view key, std::string_view token) {
  if (token.empty() || token.front() != '{') return;
  append_key(out, key);
  out += token;
}

}  // namespace

void append_item_data(std::string& out, const krino::event::ItemFinished& item) {
  out += "{\"success\":";
  krino::event::append_bool(out, item.success && !item.error);
  append_section(out, "inputs", item.inputs);
  append_section(out, "expectedOutputs", item.expected_outputs);
  append_section(out, "actualOutputs", item.actual_outputs);
  append_section(out, "metadata", item.metadata);
  append_key(out, "evalResults");
  out += '[';
  for (std::size_t i = 0; i < item.results.size(); ++i) {
    if (i > 0) out += ',';
    out += item.results[i].json;
  }
  out += ']';
  // The server's datasetItemId is a string; a dataset's numeric id is sent as its digits.
  if (!item.dataset_item_id.empty() && item.dataset_item_id != "null") {
    append_key(out, "datasetItemId");
    if (item.dataset_item_id.front() == '"') out += item.dataset_item_id;
    else krino::json::append_json_string(out, item.dataset_item_id);
  }
  if (item.metrics) {
    const krino::event::CallMetrics& m = *item.metrics;
    if (m.tokens_in) append_key(out, "tokensIn"), krino::event::append_integer(out, *m.tokens_in);
    if (m.tokens_out) append_key(out, "tokensOut"), krino::event::append_integer(out, *m.tokens_out);
    if (m.cost_usd) append_key(out, "costUsd"), krino::json::append_double(out, *m.cost_usd);
    if (m.latency_ms) append_key(out, "latencyMs"), krino::json::append_double(out, *m.latency_ms);
  }
  if (!item.id.empty() && item.id != "null") {
    append_key(out, "itemId");
    out += item.id;
  }
  append_key(out, "itemIndex");
  krino::event::append_integer(out, item.index);
  append_key(out, "runIndex");
  krino::event::append_integer(out, item.run_index);
  if (item.location) {
    append_key(out, "location");
    krino::json::append_json_string(out, *item.location);
  }
  if (item.error) {
    append_key(out, "error");
    krino::event::append_item_error(out, *item.error);
  }
  if (item.duration_ms) {
    append_key(out, "durationMs");
    krino::json::append_double(out, *item.duration_ms);
  }
  out += '}';
}

}  // namespace krino::server
