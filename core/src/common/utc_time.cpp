#include "krino/core/common/utc_time.hpp"

#include <ctime>

namespace krino::core {

std::string utc_timestamp_now() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

}  // namespace krino::core
