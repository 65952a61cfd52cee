#pragma once
// Small writers the API's handlers share (internal to server_api).
#include "krino/core/store/store_types.hpp"

#include <krino/event/values.hpp>
#include <krino/json_spans.hpp>
#include <krino/json_text.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

namespace krino::core::server_api {

inline void append_optional_text(std::string& out, const std::optional<std::string>& text) {
  if (text) krino::json::append_json_string(out, *text);
  else out += "null";
}

// An item as the Dokimos server lists it: its id, then the members the client sent.
inline void append_item(std::string& out, const store::StoredItem& item) {
  out += "{\"id\":";
  krino::json::append_json_string(out, item.id);
  krino::event::append_key(out, "index");
  krino::event::append_integer(out, item.seq);
  krino::json::for_each_member(item.document, [&](std::string_view key, std::string_view value) {
    if (krino::json::key_equals(key, "id") || krino::json::key_equals(key, "index")) return true;
    out += ',';
    out += key;
    out += ':';
    out += value;
    return true;
  });
  out += '}';
}

// A number, or null for one that is not finite (a sum of huge scores that overflowed): JSON has
// no infinity.
inline void append_finite(std::string& out, double value) {
  if (std::isfinite(value)) krino::json::append_double(out, value);
  else out += "null";
}

// [lo,hi]: a confidence interval (null when either end is not finite).
inline void append_interval(std::string& out, const std::array<double, 2>& interval) {
  if (!std::isfinite(interval[0]) || !std::isfinite(interval[1])) {
    out += "null";
    return;
  }
  out += '[';
  krino::json::append_double(out, interval[0]);
  out += ',';
  krino::json::append_double(out, interval[1]);
  out += ']';
}

// passed / total, or null for a run without items (0 % would claim a result that does not exist).
inline void append_pass_rate(std::string& out, std::int64_t passed, std::int64_t total) {
  if (total > 0) krino::json::append_double(out, static_cast<double>(passed) / static_cast<double>(total));
  else out += "null";
}

// What a run took, for lists and charts: ,"durationMs":..,"costUsd":..,"tokensIn":..,"tokensOut":..
// (each null when the run has not measured it, or has not ended for the duration).
inline void append_run_costs(std::string& out, const store::RunSummary& run) {
  using krino::event::append_key;
  append_key(out, "durationMs");
  krino::event::append_optional(out, run.duration_ms);
  append_key(out, "costUsd");
  krino::event::append_optional(out, run.cost_usd);
  append_key(out, "tokensIn");
  krino::event::append_optional(out, run.tokens_in);
  append_key(out, "tokensOut");
  krino::event::append_optional(out, run.tokens_out);
}

// The Dokimos server's RunSummary (and what the run took, append_run_costs): {id, status, config, itemCount, passedCount, passRate, startedAt, completedAt}.
inline void append_run_summary(std::string& out, const store::RunSummary& run) {
  using krino::event::append_key;
  out += "{\"id\":";
  krino::json::append_json_string(out, run.id);
  append_key(out, "status");
  krino::json::append_json_string(out, store::status_name(run.status));
  append_key(out, "config");
  out += run.metadata;
  append_key(out, "itemCount");
  krino::event::append_integer(out, run.item_count);
  append_key(out, "passedCount");
  krino::event::append_integer(out, run.passed_count);
  append_key(out, "passRate");
  append_pass_rate(out, run.passed_count, run.item_count);
  append_key(out, "startedAt");
  krino::json::append_json_string(out, run.started_at);
  append_key(out, "completedAt");
  append_optional_text(out, run.completed_at);
  append_run_costs(out, run);
  out += '}';
}

// What follows `content` in a Spring Data page, the paging the Dokimos UI and clients read:
// number, size, totalElements, totalPages, numberOfElements, first, last, empty.
inline void append_page_fields(std::string& out, std::size_t page, std::size_t size, std::int64_t total, std::size_t on_page, bool last) {
  using krino::event::append_key;
  const std::int64_t total_pages = (total + static_cast<std::int64_t>(size) - 1) / static_cast<std::int64_t>(size);
  append_key(out, "number");
  krino::event::append_integer(out, page);
  append_key(out, "size");
  krino::event::append_integer(out, size);
  append_key(out, "totalElements");
  krino::event::append_integer(out, total);
  append_key(out, "totalPages");
  krino::event::append_integer(out, total_pages);
  append_key(out, "numberOfElements");
  krino::event::append_integer(out, on_page);
  append_key(out, "first");
  krino::event::append_bool(out, page == 0);
  append_key(out, "last");
  krino::event::append_bool(out, last);
  append_key(out, "empty");
  krino::event::append_bool(out, on_page == 0);
}

}  // namespace krino::core::server_api
