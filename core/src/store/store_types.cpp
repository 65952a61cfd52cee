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
  }
  return "RUNNING";
}

std::optional<RunStatus> parse_status(std::string_view name) {
  for (RunStatus status : {RunStatus::running, RunStatus::success, RunStatus::failed, RunStatus::cancelled})
    if (status_name(status) == name) return status;
  return std::nullopt;
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

}  // namespace krino::core::store
