// How test case values appear in a judge prompt: a string verbatim, anything else
// (object, array, number, boolean, null) as pretty-printed JSON with two-space indentation. Numbers
// keep their form: 5 stays 5 and 5.0 stays 5.0.
// See docs/plugins/judge.md#prompts.
#ifndef KRINO_JUDGE_VALUE_RENDERING_H
#define KRINO_JUDGE_VALUE_RENDERING_H

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace krino::judge {

std::string pretty_json(const boost::json::value& value);

// A string's text, or pretty_json of anything else.
std::string render_value(const boost::json::value& value);

// Context chunks as a numbered list, one chunk per entry ("[1] first\n\n[2] second").
std::string render_chunks(const std::vector<std::string>& chunks);

}  // namespace krino::judge

#endif  // KRINO_JUDGE_VALUE_RENDERING_H
