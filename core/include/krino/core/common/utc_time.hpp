#pragma once
// Wall-clock time as written into events and files: ISO 8601 in UTC, to the second.
#include <chrono>
#include <string>

namespace krino::core {

// "2024-05-01T12:34:56Z"
std::string format_utc_timestamp(std::chrono::system_clock::time_point when);

// The current time, formatted as above.
inline std::string utc_timestamp_now() { return format_utc_timestamp(std::chrono::system_clock::now()); }

}  // namespace krino::core
