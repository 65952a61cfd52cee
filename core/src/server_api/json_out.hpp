#pragma once
// Small writers the API's handlers share (internal to server_api).
#include "krino/core/store/store_types.hpp"

#include <krino/event/values.hpp>
#include <krino/json_text.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace krino::core::server_api {

inline void append_optional_text(std::string& out, const std::optional<std::string>& text) {
  if (text) krino::json::append_json_string(out, *text);
  else out += "null";
}

// passed / total, or null for a run without items (0 % would claim a result that does not exist).
inline void append_pass_rate(std::string& out, std::int64_t passed, std::int64_t total) {
  if (total > 0) krino::json::append_double(out, static_cast<double>(passed) / static_cast<double>(total));
  else out += "null";
}

// The Dokimos server's RunSummary: {id, status, config, itemCount, passedCount, passRate, startedAt, completedAt}.
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
  out += '}';
}

}  // namespace krino::core::server_api
