// Parsing a tool call's arguments text (a JSON string inside the message) into values whose
// floats are exactly the doubles Python's json.loads() reads.
#ifndef KRINO_AGENT_OPENJUDGE_ARGUMENT_TEXT_H
#define KRINO_AGENT_OPENJUDGE_ARGUMENT_TEXT_H

#include <boost/json.hpp>

#include <optional>
#include <string_view>

namespace krino::agent::openjudge {

// The JSON value of `text`, or nullopt when it is not valid JSON. Read by krino::json::parse, whose
// floats are correctly rounded as Python's are (Boost.JSON 1.81's own parse may be one unit in the
// last place off, e.g. 2.5e-300, which would change a float's Python repr and so the comparisons).
std::optional<boost::json::value> parse_argument_text(std::string_view text);

}  // namespace krino::agent::openjudge

#endif  // KRINO_AGENT_OPENJUDGE_ARGUMENT_TEXT_H
