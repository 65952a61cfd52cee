// Reads an item_finished event straight from its text. Item events are nearly all the events of a
// run and the reporter needs few of their fields, so it keeps those as the parser goes by, builds
// no document, and stops as soon as a passing item is known to pass.
#ifndef KRINO_CONSOLE_ITEM_SCANNER_HPP
#define KRINO_CONSOLE_ITEM_SCANNER_HPP

#include "events.hpp"

#include <optional>
#include <string_view>

namespace krino::console {

// The item, or nullopt when `event` is not an item_finished event or not valid JSON (the caller
// then treats it as a document, which reports the error).
// With `every_result`, passing results are kept too (in passed_checks) and a passing item is read
// up to the end of its results.
std::optional<ItemReport> scan_item_finished(std::string_view event, bool every_result = false);

}  // namespace krino::console

#endif  // KRINO_CONSOLE_ITEM_SCANNER_HPP
