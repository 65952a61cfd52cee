#include "krino/core/process/descriptor_limit.hpp"

#include <sys/resource.h>

namespace krino::core {

std::optional<std::string> make_room_for_descriptors(std::uint64_t needed) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return std::nullopt;
  if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= needed) return std::nullopt;
  const rlim_t wanted = limit.rlim_max == RLIM_INFINITY ? static_cast<rlim_t>(needed)
                                                        : std::min<rlim_t>(limit.rlim_max, static_cast<rlim_t>(needed));
  if (wanted > limit.rlim_cur) {
    rlimit raised = limit;
    raised.rlim_cur = wanted;
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) limit.rlim_cur = wanted;
  }
  if (limit.rlim_cur >= needed) return std::nullopt;
  return "about " + std::to_string(needed) + " file descriptors are needed for the programs in flight, but this "
         "process may open only " + std::to_string(limit.rlim_cur) +
         " (ulimit -n); calls beyond that fail with 'Too many open files'. Raise the limit or lower parallelism";
}

}  // namespace krino::core
