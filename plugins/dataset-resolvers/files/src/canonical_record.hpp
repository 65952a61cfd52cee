// Recognises a record that already is a canonical krino.example/1 document, without building it:
// one validating SAX pass over the bytes. Such a record is handed to the host unchanged, which
// saves a DOM parse and a re-serialisation per row; anything else (simple shape, extra keys,
// invalid JSON) takes the normalising path, which also produces the precise error messages.
#ifndef KRINO_FILES_CANONICAL_RECORD_HPP
#define KRINO_FILES_CANONICAL_RECORD_HPP

#include <string_view>

namespace krino::files {

// True when `record` is valid JSON, an object whose keys are only id (a non-empty string),
// inputs / expectedOutputs / metadata (objects, all three present), actualOutputs (an object) and
// trace (anything but null), each at most once.
bool is_canonical_record(std::string_view record);

}  // namespace krino::files

#endif  // KRINO_FILES_CANONICAL_RECORD_HPP
