#include "krino/core/store/store_types.hpp"

namespace krino::core::store {

std::string_view status_name(RunStatus status) {
  switch (status) {
    case RunStatus::running:
      return "RUNNING";
    case RunStatus::success:
      return "SUCCESS";
    case RunStatus::failed:
      return "FAILED";
    case RunStatus::cancelled:
      return "CANCELLED";
    case RunStatus::evaluating:
      return "EVALUATING";
  }
  return "RUNNING";
}

std::optional<RunStatus> parse_status(std::string_view name) {
  for (RunStatus status : {RunStatus::running, RunStatus::success, RunStatus::failed, RunStatus::cancelled, RunStatus::evaluating})
    if (status_name(status) == name) return status;
  return std::nullopt;
}

std::string_view text_index_name(TextIndexState state) {
  switch (state) {
    case TextIndexState::none: return "NONE";
    case TextIndexState::building: return "BUILDING";
    case TextIndexState::ready: return "READY";
  }
  return "NONE";
}

TextIndexState parse_text_index(std::string_view kept) {
  if (kept == "ready") return TextIndexState::ready;
  if (kept == "building") return TextIndexState::building;
  return TextIndexState::none;
}

std::optional<std::string> dataset_lineage(const std::optional<std::string>& dataset_version) {
  if (!dataset_version) return std::nullopt;
  const std::size_t at = dataset_version->rfind('@');
  if (at == std::string::npos || at == 0 || at + 1 == dataset_version->size()) return std::nullopt;
  for (std::size_t i = at + 1; i < dataset_version->size(); ++i)
    if ((*dataset_version)[i] < '0' || (*dataset_version)[i] > '9') return std::nullopt;
  return dataset_version->substr(0, at + 1);
}

std::string_view role_name(Role role) {
  switch (role) {
    case Role::viewer:
      return "VIEWER";
    case Role::editor:
      return "EDITOR";
    case Role::admin:
      return "ADMIN";
  }
  return "VIEWER";
}

std::optional<Role> parse_role(std::string_view name) {
  for (Role role : {Role::viewer, Role::editor, Role::admin})
    if (role_name(role) == name) return role;
  return std::nullopt;
}

void RunTotals::add(const NewItem& item) {
  ++items;
  if (item.success) ++passed;
  if (item.has_error) ++errors;
  const auto& m = item.metrics;
  if (m.cost_usd) {
    ++priced;
    cost_usd = cost_usd.value_or(0.0) + *m.cost_usd;
  }
  if (m.tokens_in || m.tokens_out) ++tokenized;
  if (m.tokens_in) tokens_in = tokens_in.value_or(0) + *m.tokens_in;
  if (m.tokens_out) tokens_out = tokens_out.value_or(0) + *m.tokens_out;
  if (m.latency_ms) {
    ++timed;
    latency_ms = latency_ms.value_or(0.0) + *m.latency_ms;
  }
}

}  // namespace krino::core::store
