#pragma once
// 95 % confidence intervals for what the web UI draws as bands: a pass rate (Wilson's score
// interval, which stays inside [0, 1] and is sensible for 0 or n passes of a few items) and a mean
// score (the normal approximation from the sums a store keeps; a single score is its own interval).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace krino::core {

inline constexpr double kZ95 = 1.959963984540054;

// Wilson 95 % interval of `passed` successes in `total` trials ([0, 0] for none: callers answer
// null for a run without items before asking).
inline std::array<double, 2> wilson_interval(std::int64_t passed, std::int64_t total) {
  if (total <= 0) return {0.0, 0.0};
  const double n = static_cast<double>(total);
  const double p = static_cast<double>(passed) / n;
  const double z2 = kZ95 * kZ95;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = kZ95 * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

// Mean -/+ 1.96 standard errors, from the count, sum and sum of squares of the scores.
inline std::array<double, 2> mean_interval(std::int64_t count, double sum, double sum_squares) {
  if (count <= 0) return {0.0, 0.0};
  const double n = static_cast<double>(count);
  const double mean = sum / n;
  if (count < 2) return {mean, mean};
  const double variance = std::max(0.0, (sum_squares - sum * sum / n) / (n - 1));
  const double half = kZ95 * std::sqrt(variance / n);
  return {mean - half, mean + half};
}

}  // namespace krino::core
