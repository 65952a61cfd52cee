// Pieces of the human-readable `reason` of an eval result.
#ifndef KRINO_TEXT_REASON_TEXT_H
#define KRINO_TEXT_REASON_TEXT_H

#include <boost/json/value.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace krino::text {

// Long outputs would bury the reason, so quoted text stops after this many code points.
inline constexpr std::size_t kQuotedTextLimit = 120;

// `text` as a JSON string literal (quotes and escapes), cut to `limit` code points with
// "…(+N chars)" appended when longer.
std::string quoted(std::string_view text, std::size_t limit = kQuotedTextLimit);

// A value as shown in a reason: a string quoted (see above), anything else as compact JSON, cut
// the same way.
std::string shown(const boost::json::value& value, std::size_t limit = kQuotedTextLimit);

// JSON text already in its compact form (exact_text_form's), cut as shown cuts it.
std::string shown_json(std::string_view compact_json, std::size_t limit = kQuotedTextLimit);

// "a, b, c" — or "a, b, ... and 7 more" when `items` holds more than `limit` entries.
std::string listed(const std::vector<std::string>& items, std::size_t limit);

}  // namespace krino::text

#endif  // KRINO_TEXT_REASON_TEXT_H
