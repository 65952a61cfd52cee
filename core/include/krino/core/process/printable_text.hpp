#pragma once
// Bytes a child process wrote, made fit for an error message: valid UTF-8 (a program may print
// anything, and a cut may fall inside a character: krino/utf8.hpp, ill-formed bytes become U+FFFD),
// bounded, with surrounding white space trimmed.
#include <cstddef>
#include <string>
#include <string_view>

namespace krino::core {

// At most `max_bytes` from the start of `bytes`; "..." marks a cut.
std::string printable_head(std::string_view bytes, std::size_t max_bytes);

// At most `max_bytes` from the end of `bytes`; "..." marks a cut (also when `truncated` says the
// bytes are themselves only the end of a longer stream).
std::string printable_tail(std::string_view bytes, std::size_t max_bytes, bool truncated = false);

}  // namespace krino::core
