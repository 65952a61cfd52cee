// The one-line description of an item, used both as it arrives and in the final summary:
//   FAIL #12 (id q-13) exact_match 0.00 < 1.00: expected "Paris"
//   ERROR #7 data.jsonl:8 dataset: not valid JSON
//   PASS #3 (id q-4) exact_match 1.00 = 1.00: exact match      (with items: all)
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

// Everything after the PASS/FAIL/ERROR tag, without colour. `runs` > 1 adds "[run k/n]".
std::string describe_item(const ItemFinished& item, uint32_t runs);

// "PASS ", "FAIL " or "ERROR " (coloured by `style`) followed by `description`.
std::string tagged_line(Verdict verdict, std::string_view description, const Style& style);

}  // namespace krino::console

#endif  // KRINO_CONSOLE_ITEM_LINE_HPP
