// The data of the page's item table: one compact JSON object per item, safe to place inside a
// <script> element.
#ifndef KRINO_HTML_ITEM_DATA_HPP
#define KRINO_HTML_ITEM_DATA_HPP

#include <krino/report/events.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace krino::html {

// Appends the item as {"r": run index, "i": index, "id", "loc", "s": status, "in", "exp", "act",
// "res": [[score|null, success, reason, skipped] or null per evaluator in `evaluators` order],
// "err": {"stage","component","code","message"} | null, "ms": durationMs | null}. Texts are cut to
// `max_chars` characters. The page's script reads this shape (page_assets.cpp).
void append_item_json(std::string& out, const report::ItemFinished& item, const std::vector<std::string>& evaluators,
                      std::size_t max_chars);

// Appends JSON text so that no byte sequence in it can end or confuse the <script> element it sits
// in: <, > and & as \u003c, \u003e, \u0026 (they can only occur inside JSON strings, where the
// escapes mean the same), and U+2028 and U+2029 escaped for older JavaScript parsers.
void append_script_json(std::string& out, std::string_view json);

}  // namespace krino::html

#endif  // KRINO_HTML_ITEM_DATA_HPP
