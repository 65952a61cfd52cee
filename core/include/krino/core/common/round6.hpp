#pragma once
// How every reported aggregate is rounded (spec §8.6): scores, rates, costs.
#include <cmath>

namespace krino::core {

// round(x * 1e6) / 1e6, halves rounded up.
inline double round6(double x) { return std::floor(x * 1e6 + 0.5) / 1e6; }

}  // namespace krino::core
