#pragma once
// How every reported aggregate is rounded: scores, rates, costs. The rule is the event
// codec's, which rounds the costs it writes the same way.
// See docs/json-output.md#the-file.
#include <krino/event/values.hpp>

namespace krino::core {

// round(x * 1e6) / 1e6, halves rounded up.
using krino::event::round6;

}  // namespace krino::core
