// Splits one CSV row (as cut by CsvReader) into its fields, per RFC 4180:
//  - a field that starts with a quote (after blanks) is quoted: it runs to the matching quote,
//    may hold the delimiter and line breaks, "" stands for one quote, and its content is kept
//    exactly, blanks included; blanks between the closing quote and the delimiter are dropped;
//  - any other field runs to the next delimiter and is trimmed of spaces and tabs; a quote
//    inside it is an ordinary character (5" screen).
// A delimiter at the end of the row ends one more, empty, field.
#ifndef KRINO_FILES_CSV_FIELDS_HPP
#define KRINO_FILES_CSV_FIELDS_HPP

#include <string>
#include <string_view>
#include <vector>

namespace krino::files {

// Replaces the contents of `fields`. Throws krino::Error (INVALID_ARGUMENT) for text between a
// closing quote and the next delimiter, and for a quoted field that never closes.
void split_csv_fields(std::string_view row, char delimiter, std::vector<std::string>& fields);

}  // namespace krino::files

#endif  // KRINO_FILES_CSV_FIELDS_HPP
