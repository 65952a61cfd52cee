// Turns one row of a JSON or JSONL dataset into a canonical krino.example/1 object:
//   {"id"?, "inputs": {}, "expectedOutputs": {}, "metadata": {}, "actualOutputs"?, "trace"?}
//
// Accepted row shapes, freely mixed:
//   simple   {"id"?, "input": v, "expectedOutput": v, "actualOutput": v}
//   complex  {"id"?, "inputs": {}, "expectedOutputs": {}, "actualOutputs": {}, "metadata": {}, "trace": any}
// A singular key becomes the "input" / "output" entry of its map; when the plural map already has
// that entry, the map wins. A top-level null counts as absent. Any other top-level key goes into
// metadata, unless metadata already has that key. "id" must be a string or an integer (written as
// its decimal string, digit for digit); an empty string counts as no id.
//
// The example is assembled from the row's own bytes: every value is copied as written, never
// parsed and written again, so a number (a 30-digit integer, 0.1000000000000000055511) reaches the
// evaluators and reports exactly as the dataset spells it.
#ifndef KRINO_FILES_EXAMPLE_NORMALIZER_HPP
#define KRINO_FILES_EXAMPLE_NORMALIZER_HPP

#include <string>
#include <string_view>

namespace krino::files {

// `row` must be valid JSON text of one object (parse_json_record checks it, and refuses duplicate
// keys). Throws krino::Error (INVALID_ARGUMENT) naming the offending key for a row that cannot be
// an example (a map that is not an object, an id that is neither string nor integer).
std::string normalize_example(std::string_view row);

}  // namespace krino::files

#endif  // KRINO_FILES_EXAMPLE_NORMALIZER_HPP
