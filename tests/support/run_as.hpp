#pragma once
// Running a child process as another, unprivileged user: what tests need for programs that refuse
// to run as root (PostgreSQL's initdb and postgres) when the suite itself runs as root, as in CI.
// The switch happens in the child between fork and exec, so no su/sudo is needed.
#include <grp.h>
#include <pwd.h>
#include <sys/types.h>
#include <unistd.h>

#include <optional>
#include <stdexcept>
#include <string>

namespace krino::test {

struct RunAs {
  uid_t uid = 0;
  gid_t gid = 0;
};

// `nobody` when this process runs as root, nothing otherwise (the current user is fine then).
// `nobody` rather than a dedicated user: it exists on every Debian system, and creating a user would
// change the machine (and need useradd) for a test.
inline std::optional<RunAs> unprivileged_user_if_root() {
  if (::geteuid() != 0) return std::nullopt;
  const passwd* user = ::getpwnam("nobody");
  if (user == nullptr) throw std::runtime_error("running as root and there is no user 'nobody' to run the child as");
  return RunAs{user->pw_uid, user->pw_gid};
}

// In a forked child before exec: drops every group, then the group, then the user (in that order:
// once the user is changed the rights to change the others are gone). Only async-signal-safe calls.
// False when a step fails; the child must then _exit rather than run as root.
inline bool become(const RunAs& who) noexcept {
  return ::setgroups(0, nullptr) == 0 && ::setgid(who.gid) == 0 && ::setuid(who.uid) == 0;
}

}  // namespace krino::test
