// The canonical text of a JSON value for the OpenJudge graders: what Python's repr() and str()
// print for the value json.loads() builds. OpenJudge compares tool calls by these strings, so
// scores only agree with it when krino spells values exactly as Python does.
#ifndef KRINO_AGENT_OPENJUDGE_PYTHON_REPR_H
#define KRINO_AGENT_OPENJUDGE_PYTHON_REPR_H

#include <boost/json.hpp>

#include <string>

namespace krino::agent::openjudge {

// repr(): {'query': 'python', 'n': 1, 'x': 1.0, 'ok': True, 'none': None, 'list': [1, 'a']}.
// Objects keep their key order; integers print without a fraction, floats always with one (or in
// Python's exponent form, 1e+16); strings take single quotes unless they contain a single quote
// and no double quote, with Python's escapes.
std::string python_repr(const boost::json::value& value);

// str(): a string is its own text, every other value its repr().
std::string python_str(const boost::json::value& value);

// repr() of a float: the shortest text that reads back as the same double, fixed notation for
// decimal exponents -4..15 and exponent notation outside ("1e-05", "1.5e+16").
std::string python_float_repr(double value);

// Python's truth value: false for null, false, 0, 0.0, "", [] and {}.
bool python_truthy(const boost::json::value& value);

}  // namespace krino::agent::openjudge

#endif  // KRINO_AGENT_OPENJUDGE_PYTHON_REPR_H
