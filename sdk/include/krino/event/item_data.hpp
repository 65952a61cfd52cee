#pragma once
// One finished item as the results server takes it: the Dokimos server's ItemData (inputs,
// expectedOutputs, actualOutputs, metadata, evalResults, success, datasetItemId) with the call
// metrics beside it (tokensIn, tokensOut, costUsd, latencyMs) and krino's own members the server
// keeps as sent (itemId, itemIndex, runIndex, location, error, durationMs). The server reporter
// and `krino mcp` write it; the results server's ingestion (server_api/item_batch) reads it.
//
// Bytes pass through: the sections and each evaluator's result document are copied as the event
// holds them, so every number reaches the server exactly as the run wrote it.
#include <krino/event/item_finished.hpp>
#include <krino/event/values.hpp>
#include <krino/json_text.hpp>

#include <string>
#include <string_view>

namespace krino::event {
namespace detail {

// A section is an object or absent (krino.example/1); anything else is left out, not guessed at.
inline void append_item_data_section(std::string& out, std::string_view key, std::string_view token) {
  if (token.empty() || token.front() != '{') return;
  append_key(out, key);
  out += token;
}

}  // namespace detail

// Appends the item's ItemData object to `out`.
inline void append_item_data(std::string& out, const krino::event::ItemFinished& item) {
  out += "{\"success\":";
  append_bool(out, item.success && !item.error);
  detail::append_item_data_section(out, "inputs", item.inputs);
  detail::append_item_data_section(out, "expectedOutputs", item.expected_outputs);
  detail::append_item_data_section(out, "actualOutputs", item.actual_outputs);
  detail::append_item_data_section(out, "metadata", item.metadata);
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
    if (m.tokens_in) append_key(out, "tokensIn"), append_integer(out, *m.tokens_in);
    if (m.tokens_out) append_key(out, "tokensOut"), append_integer(out, *m.tokens_out);
    if (m.cost_usd) append_key(out, "costUsd"), krino::json::append_double(out, *m.cost_usd);
    if (m.latency_ms) append_key(out, "latencyMs"), krino::json::append_double(out, *m.latency_ms);
  }
  if (!item.id.empty() && item.id != "null") {
    append_key(out, "itemId");
    out += item.id;
  }
  append_key(out, "itemIndex");
  append_integer(out, item.index);
  append_key(out, "runIndex");
  append_integer(out, item.run_index);
  if (item.location) {
    append_key(out, "location");
    krino::json::append_json_string(out, *item.location);
  }
  if (item.error) {
    append_key(out, "error");
    append_item_error(out, *item.error);
  }
  if (item.duration_ms) {
    append_key(out, "durationMs");
    krino::json::append_double(out, *item.duration_ms);
  }
  out += '}';
}

}  // namespace krino::event
