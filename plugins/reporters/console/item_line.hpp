// The one-line description of a failed or errored item, used both as it arrives and in the
// final summary:
//   FAIL #12 (id q-13) exact_match 0.00 < 1.00: expected "Paris"
//   ERROR #7 data.jsonl:8 dataset: not valid JSON
#ifndef KRINO_CONSOLE_ITEM_LINE_HPP
#define KRINO_CONSOLE_ITEM_LINE_HPP

#include "events.hpp"
#include "style.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace krino::console {

// Longest reason or error message printed, in code points; longer ones end with "...".
inline constexpr std::size_t kMaxReasonChars = 300;

// Everything after the FAIL/ERROR tag, without colour. `runs` > 1 adds "[run k/n]".
std::string describe_item(const ItemReport& item, uint32_t runs);

// "FAIL " or "ERROR " (coloured by `style`) followed by `description`.
std::string tagged_line(Verdict verdict, std::string_view description, const Style& style);

}  // namespace krino::console

#endif  // KRINO_CONSOLE_ITEM_LINE_HPP
