#pragma once
// Room for the descriptors of many child processes. Each call in flight holds four (three pipe
// ends and a pidfd), so `parallelism: 500` needs about 2,000, past the soft limit of 1,024 that
// many systems start processes with while their hard limit is far higher.
#include <cstdint>
#include <optional>
#include <string>

namespace krino::core {

// Raises this process's soft RLIMIT_NOFILE (never above the hard limit) so that `needed`
// descriptors fit, and never lowers it. Returns a warning for the user when even the hard limit
// is too low. Process-wide; call while configuring, before threads open descriptors in earnest.
std::optional<std::string> make_room_for_descriptors(std::uint64_t needed);

}  // namespace krino::core
