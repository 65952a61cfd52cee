#pragma once
// How a plain (unquoted) YAML scalar of the experiment file becomes a JSON value.
#include <boost/json/value.hpp>

#include <string_view>

namespace krino::core {

// Types `text` by the YAML 1.2 core schema: null, true/false, a decimal integer, a decimal float;
// anything else stays a string. The grammar is checked by hand, one pass over the bytes (a
// recursive std::regex overflowed the stack on a scalar of some 30,000 digits). Numbers:
//   - an integer that fits int64 is an int64; a larger positive one that fits uint64 is a uint64
//     (a seed may use all 64 bits); beyond that it is a double, as any float;
//   - a float is read correctly rounded (std::from_chars); one out of the double range (1e400,
//     1e-400) stays the text as written, as do .inf and .nan: never a non-finite number.
boost::json::value resolve_plain_scalar(std::string_view text);

}  // namespace krino::core
