// Escaping untrusted text for GitHub-flavoured Markdown.
#ifndef KRINO_MARKDOWN_MARKDOWN_TEXT_HPP
#define KRINO_MARKDOWN_MARKDOWN_TEXT_HPP

#include <string>
#include <string_view>

namespace krino::markdown {

// `text` as inline Markdown that renders as the same characters and nothing else, safe inside a
// table cell: on one line (line breaks and controls become spaces), `|` escaped so the cell does
// not end, HTML's & < > as entities so no tag or entity is formed, Markdown punctuation
// (\ ` * _ [ ] ~ $ and friends) backslash-escaped so no emphasis, link, code or math is formed,
// and a zero-width space after @ and before the digits of #123, so no one is mentioned and no
// issue is linked from a pull-request comment.
std::string inline_text(std::string_view text);

}  // namespace krino::markdown

#endif  // KRINO_MARKDOWN_MARKDOWN_TEXT_HPP
