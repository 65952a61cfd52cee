// RFC 4180 fields and the column names of evaluators.
#ifndef KRINO_CSV_CSV_FIELD_HPP
#define KRINO_CSV_CSV_FIELD_HPP

#include <string>
#include <string_view>
#include <vector>

namespace krino::csv {

// Appends `value` as one field: quoted (with quotes doubled) when it holds a comma, a quote, a
// line break, or space at either end (which readers that trim unquoted fields would lose).
void append_field(std::string& out, std::string_view value);

// Appends a text cell: as append_field, after an apostrophe when `formula_escape` is set and
// the text starts with a character a spreadsheet reads as the start of a formula.
void append_text_field(std::string& out, std::string_view value, bool formula_escape);

// Whether a spreadsheet would run `value` as a formula: it starts with =, +, -, @, a tab or a
// carriage return (the OWASP list).
bool looks_like_formula(std::string_view value);

// The column stem of an evaluator name: ASCII letters lowercased, digits kept, every run of other
// characters one "_", none at the ends; "evaluator" when nothing is left. "Faithfulness (v2)" ->
// "faithfulness_v2".
std::string slug(std::string_view name);

// The stems of `names`, in order, made unique: a stem already taken gets "_2", "_3", ... .
std::vector<std::string> unique_slugs(const std::vector<std::string>& names);

}  // namespace krino::csv

#endif  // KRINO_CSV_CSV_FIELD_HPP
