// Turns one row of a JSON or JSONL dataset into a canonical krino.example/1 object:
//   {"id"?, "inputs": {}, "expectedOutputs": {}, "metadata": {}, "actualOutputs"?, "trace"?}
//
// Accepted row shapes, freely mixed:
//   simple   {"id"?, "input": v, "expectedOutput": v, "actualOutput": v}
//   complex  {"id"?, "inputs": {}, "expectedOutputs": {}, "actualOutputs": {}, "metadata": {}, "trace": any}
// A singular key becomes the "input" / "output" entry of its map; when the plural map already has
// that entry, the map wins. A top-level null counts as absent. Any other top-level key goes into
// metadata, unless metadata already has that key. "id" must be a string or an integer (written as
// its decimal string); an empty string counts as no id.
#ifndef KRINO_FILES_EXAMPLE_NORMALIZER_HPP
#define KRINO_FILES_EXAMPLE_NORMALIZER_HPP

#include <boost/json.hpp>

namespace krino::files {

// Throws krino::Error (INVALID_ARGUMENT) naming the offending key for a row that cannot be an
// example (a map that is not an object, an id that is neither string nor integer). A row already in
// canonical shape is returned as it is, without being rebuilt.
boost::json::object normalize_example(boost::json::object row);

}  // namespace krino::files

#endif  // KRINO_FILES_EXAMPLE_NORMALIZER_HPP
