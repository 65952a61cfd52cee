#pragma once
// How every reported aggregate is rounded (spec §8.6): scores, rates, costs. The rule is the event
// codec's, which rounds the costs it writes the same way.
#include <krino/event/values.hpp>

namespace krino::core {

// round(x * 1e6) / 1e6, halves rounded up.
using krino::event::round6;

}  // namespace krino::core
