#pragma once
// Wall-clock time as written into events and files: ISO 8601 in UTC, to the second.
#include <string>

namespace krino::core {

// The current time, e.g. "2026-11-26T15:04:05Z".
std::string utc_timestamp_now();

}  // namespace krino::core
