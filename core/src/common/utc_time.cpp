#include "krino/core/common/utc_time.hpp"

#include <cstdio>

namespace krino::core {

std::string format_utc_timestamp(std::chrono::system_clock::time_point when) {
  auto seconds = std::chrono::floor<std::chrono::seconds>(when);
  auto days = std::chrono::floor<std::chrono::days>(seconds);
  std::chrono::year_month_day date{days};
  std::chrono::hh_mm_ss time{seconds - days};
  char text[32];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                static_cast<int>(time.hours().count()), static_cast<int>(time.minutes().count()),
                static_cast<int>(time.seconds().count()));
  return text;
}

}  // namespace krino::core
