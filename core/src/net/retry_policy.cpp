#include "krino/core/net/retry_policy.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <vector>

namespace krino::core {
namespace {

using std::chrono::milliseconds;

// A ceiling this large is already longer than any sane max_delay; it keeps the doubling finite.
constexpr int kMaxDoublings = 40;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split_on_spaces(std::string_view s) {
  std::vector<std::string_view> parts;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    size_t start = i;
    while (i < s.size() && s[i] != ' ') ++i;
    if (i > start) parts.push_back(s.substr(start, i - start));
  }
  return parts;
}

std::optional<int> digits(std::string_view s, size_t min_len, size_t max_len) {
  if (s.size() < min_len || s.size() > max_len) return std::nullopt;
  int value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

std::optional<unsigned> month_number(std::string_view name) {
  static constexpr std::array<std::string_view, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                               "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (unsigned i = 0; i < kMonths.size(); ++i)
    if (kMonths[i] == name) return i + 1;
  return std::nullopt;
}

struct TimeOfDay {
  int hours, minutes, seconds;
};

std::optional<TimeOfDay> time_of_day(std::string_view s) {
  if (s.size() != 8 || s[2] != ':' || s[5] != ':') return std::nullopt;
  auto h = digits(s.substr(0, 2), 2, 2), m = digits(s.substr(3, 2), 2, 2), sec = digits(s.substr(6, 2), 2, 2);
  if (!h || !m || !sec || *h > 23 || *m > 59 || *sec > 60) return std::nullopt;  // 60: a leap second
  return TimeOfDay{*h, *m, *sec};
}

std::optional<std::chrono::system_clock::time_point> make_time(int year, std::optional<unsigned> month, int day,
                                                               std::optional<TimeOfDay> t) {
  if (!month || !t) return std::nullopt;
  std::chrono::year_month_day date{std::chrono::year{year}, std::chrono::month{*month},
                                   std::chrono::day{static_cast<unsigned>(day)}};
  if (!date.ok()) return std::nullopt;
  return std::chrono::sys_days{date} + std::chrono::hours{t->hours} + std::chrono::minutes{t->minutes} +
         std::chrono::seconds{t->seconds};
}

}  // namespace

bool is_retryable(const AttemptFailure& failure) {
  switch (failure.kind) {
    case AttemptFailure::Kind::timeout:
    case AttemptFailure::Kind::connection_error:
      return true;
    case AttemptFailure::Kind::http_status:
      break;
  }
  int s = failure.http_status;
  if (s == 408 || s == 429) return true;
  if (s < 500 || s > 599) return false;
  // Not implemented, version not supported, variant negotiation, loop detected, not extended and
  // network authentication required: the server will answer the same request the same way.
  return s != 501 && s != 505 && s != 506 && s != 508 && s != 510 && s != 511;
}

std::string describe(const AttemptFailure& failure) {
  switch (failure.kind) {
    case AttemptFailure::Kind::timeout:
      return "timeout";
    case AttemptFailure::Kind::connection_error:
      return "connection error";
    case AttemptFailure::Kind::http_status:
      break;
  }
  return "HTTP " + std::to_string(failure.http_status);
}

std::optional<std::chrono::system_clock::time_point> parse_http_date(std::string_view value) {
  value = trim(value);
  auto comma = value.find(',');
  if (comma == std::string_view::npos) {
    // asctime: "Sun Nov  6 08:49:37 1994"
    auto p = split_on_spaces(value);
    if (p.size() != 5) return std::nullopt;
    auto day = digits(p[2], 1, 2), year = digits(p[4], 4, 4);
    if (!day || !year) return std::nullopt;
    return make_time(*year, month_number(p[1]), *day, time_of_day(p[3]));
  }
  auto p = split_on_spaces(value.substr(comma + 1));
  if (p.size() == 3 && p[0].size() == 9 && p[0][2] == '-' && p[0][6] == '-' && p[2] == "GMT") {
    // RFC 850: "Sunday, 06-Nov-94 08:49:37 GMT"; two-digit years are read as 1970..2069.
    auto day = digits(p[0].substr(0, 2), 2, 2), yy = digits(p[0].substr(7, 2), 2, 2);
    if (!day || !yy) return std::nullopt;
    return make_time(*yy < 70 ? 2000 + *yy : 1900 + *yy, month_number(p[0].substr(3, 3)), *day, time_of_day(p[1]));
  }
  // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT"
  if (p.size() != 5 || p[4] != "GMT") return std::nullopt;
  auto day = digits(p[0], 1, 2), year = digits(p[2], 4, 4);
  if (!day || !year) return std::nullopt;
  return make_time(*year, month_number(p[1]), *day, time_of_day(p[3]));
}

std::optional<milliseconds> parse_retry_after(std::string_view value, std::chrono::system_clock::time_point now) {
  value = trim(value);
  if (value.empty()) return std::nullopt;
  bool numeric = std::all_of(value.begin(), value.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
  if (numeric) {
    // RFC 9110 allows whole seconds only; some servers send fractions, and reading them costs nothing.
    if (std::count(value.begin(), value.end(), '.') > 1 || value.front() == '.' || value.back() == '.')
      return std::nullopt;
    double seconds = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
    if (ec == std::errc::result_out_of_range) return milliseconds::max();
    if (ec != std::errc() || end != value.data() + value.size()) return std::nullopt;
    double ms = std::ceil(seconds * 1000.0);
    if (ms >= static_cast<double>(milliseconds::max().count())) return milliseconds::max();
    return milliseconds{static_cast<milliseconds::rep>(ms)};
  }
  auto when = parse_http_date(value);
  if (!when) return std::nullopt;
  if (*when <= now) return milliseconds{0};
  return std::chrono::ceil<milliseconds>(*when - now);
}

RetryDecision decide_retry(const RetryPolicy& policy, int attempt, const AttemptFailure& failure,
                           std::optional<std::string_view> retry_after, std::chrono::system_clock::time_point now,
                           std::mt19937_64& rng) {
  attempt = std::max(attempt, 1);
  if (!is_retryable(failure)) return GiveUp{describe(failure) + " is not retried: the same request would fail again"};
  if (attempt >= policy.max_attempts) {
    return GiveUp{describe(failure) + " after " + std::to_string(attempt) + (attempt == 1 ? " attempt" : " attempts")};
  }
  if (retry_after) {
    if (auto asked = parse_retry_after(*retry_after, now)) {
      return RetryAfterDelay{std::min(*asked, std::max(policy.max_retry_after, milliseconds{0})), true};
    }
  }
  // Full jitter (Brooks, "Exponential Backoff and Jitter"): spreading retries over the whole interval
  // stops the calls of one rejected wave from coming back as another wave.
  int64_t ceiling = std::max<int64_t>(policy.base_delay.count(), 0);
  int64_t cap = std::max<int64_t>(policy.max_delay.count(), 0);
  for (int i = 1; i < attempt && i <= kMaxDoublings && ceiling < cap; ++i) ceiling *= 2;
  ceiling = std::min(ceiling, cap);
  // Modulo keeps the draw identical on every standard library (distributions are not); the bias is
  // below 2^-30 for any ceiling that fits in a day of milliseconds.
  uint64_t draw = rng() % (static_cast<uint64_t>(ceiling) + 1);
  return RetryAfterDelay{milliseconds{static_cast<int64_t>(draw)}, false};
}

}  // namespace krino::core
