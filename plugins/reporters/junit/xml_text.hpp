// XML 1.0 escaping for the JUnit report.
#ifndef KRINO_JUNIT_XML_TEXT_HPP
#define KRINO_JUNIT_XML_TEXT_HPP

#include <string>
#include <string_view>

namespace krino::junit {

// Appends `text` as XML character data: & < > escaped (so "]]>" cannot appear), carriage
// returns as a character reference (a parser would turn a raw one into a line feed), and every
// character XML 1.0 forbids replaced: C0 controls other than tab, line feed and carriage return
// become their visible Control Pictures symbol (U+2400 + code, so ESC reads as U+241B), U+FFFE and
// U+FFFF and bytes that are not valid UTF-8 become U+FFFD.
void append_xml_text(std::string& out, std::string_view text);

// Appends `text` for use inside a double-quoted attribute value: as append_xml_text, plus quotes
// escaped and tab and line feed as character references, so attribute normalisation keeps them.
void append_xml_attribute(std::string& out, std::string_view text);

// ` name="value"` with the value escaped.
void append_attribute(std::string& out, std::string_view name, std::string_view value);

}  // namespace krino::junit

#endif  // KRINO_JUNIT_XML_TEXT_HPP
