#pragma once
// The significance tests of the regression gate (docs/gate.md#how-it-decides), on one seeded random stream.
//
// Portability: std::mt19937_64's output sequence is fixed by the C++ standard, but the standard
// distributions are not (libstdc++ and libc++ differ). So every random choice is derived here by hand
// from raw 64-bit outputs: a sign flip is the top bit, a resampling index is floor(u * n) with
// u = (x >> 11) * 2^-53. The same seed gives the same p-values and intervals everywhere.
#include <cstdint>
#include <random>
#include <vector>

namespace krino::core {

class GateRng {
 public:
  explicit GateRng(uint64_t seed) : engine_(seed) {}
  bool coin() { return (engine_() >> 63) != 0; }
  // Uniform in [0, n), n > 0.
  size_t index(size_t n) {
    const double u = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
    const size_t i = static_cast<size_t>(u * static_cast<double>(n));
    return i < n ? i : n - 1;
  }

 private:
  std::mt19937_64 engine_;
};

// |delta| at or under this counts as no change.
inline constexpr double kGateEpsilon = 0.001;

// Beyond this many random draws (paired items x iterations: a run of some 27,000 items at 10,000
// iterations), the sign-flip test and the bootstrap interval use their large-sample normal forms,
// which draw nothing: sampling a million items 10,000 times would take minutes, and at that size
// the normal form is closer to the exact test than the sampled one is.
inline constexpr double kLargeSampleWork = 268435456.0;  // 2^28
bool uses_large_sample_form(std::size_t pairs, uint32_t iterations);

// McNemar's test with continuity correction. b = pairs that went pass -> fail, c = fail -> pass.
// p = erfc(sqrt(chi2 / 2)), chi2 = max(|b - c| - 1, 0)^2 / (b + c); 1 when b + c = 0 or chi2 = 0.
double mcnemar_p_value(uint64_t b, uint64_t c);

// Two-sided paired sign-flip permutation test on deltas: p = (#{|mean of flipped| >= |mean|} + 1) /
// (iterations + 1). Fewer than two deltas, or all zero: 1 (no random numbers drawn). Large samples
// (uses_large_sample_form): p = erfc(|sum d| / sqrt(2 sum d^2)), at least 1 / (iterations + 1).
double sign_flip_p_value(const std::vector<double>& deltas, uint32_t iterations, GateRng& rng);

struct Interval {
  double low = 0.0;
  double high = 0.0;
};

// Bootstrap percentile interval (2.5 %, 97.5 %, linear interpolation) of the mean of `deltas`.
// Empty input: [0, 0] (no random numbers drawn). Large samples: mean -/+ 1.96 sd / sqrt(n).
Interval bootstrap_mean_interval(const std::vector<double>& deltas, uint32_t iterations, GateRng& rng);

// The fewest paired items with which even the most extreme outcome (every pair moved the same
// way) is significant at `alpha`: for McNemar, and for the sign-flip test (whose smallest possible
// p-value is about 2^(1-n), and never under 1/(iterations+1)). 0 when no sample size would do.
uint64_t mcnemar_minimum_pairs(double alpha);
uint64_t sign_flip_minimum_pairs(double alpha, uint32_t iterations);

double mean(const std::vector<double>& values);

}  // namespace krino::core
