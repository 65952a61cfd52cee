// Parsing a tool call's arguments text (a JSON string inside the message) into values whose
// floats are exactly the doubles Python's json.loads() reads.
#ifndef KRINO_AGENT_OPENJUDGE_ARGUMENT_TEXT_H
#define KRINO_AGENT_OPENJUDGE_ARGUMENT_TEXT_H

#include <boost/json.hpp>

#include <optional>
#include <string_view>

namespace krino::agent::openjudge {

// The JSON value of `text` as Python's json.loads() reads it, or nullopt when Python would refuse
// it. Numbers are read by krino::json::parse, whose floats are correctly rounded as Python's are
// (Boost.JSON 1.81's own parse may be one unit in the last place off, e.g. 2.5e-300, which would
// change a float's Python repr and so the graders' comparisons). Beyond JSON, NaN, Infinity and
// -Infinity are read as the doubles Python makes of them, and numbers beyond the double range
// become infinities (1e400), as in Python.
std::optional<boost::json::value> parse_argument_text(std::string_view text);

}  // namespace krino::agent::openjudge

#endif  // KRINO_AGENT_OPENJUDGE_ARGUMENT_TEXT_H
