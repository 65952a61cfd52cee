// The style sheet and script of the HTML report, inlined into every page (no external resource).
#ifndef KRINO_HTML_PAGE_ASSETS_HPP
#define KRINO_HTML_PAGE_ASSETS_HPP

namespace krino::html {

// CSS: light and dark colour schemes (prefers-color-scheme), cards, tables, histograms.
extern const char* const kPageStyle;

// JavaScript: reads the JSON in <script id="krino-data"> and builds the item table (filter by
// text, status and run; sort by any column; rows expand to their details), honours and updates a
// URL fragment such as #filter=paris&status=failed&run=2&sort=-score0, and makes the evaluator table
// sortable. It builds the DOM with textContent only, never from markup.
extern const char* const kPageScript;

}  // namespace krino::html

#endif  // KRINO_HTML_PAGE_ASSETS_HPP
