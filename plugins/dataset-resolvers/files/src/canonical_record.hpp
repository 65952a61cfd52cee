// Recognises a record that already is a canonical krino.example/1 document, without building it:
// a scan of its top-level keys. Such a record is handed to the host unchanged, which saves a DOM
// parse and a re-serialisation per row; anything else (simple shape, extra keys) takes the
// normalising path. The scan does not validate the syntax: the host validates every example it
// receives and reports a record that is not valid JSON as a dataset error.
#ifndef KRINO_FILES_CANONICAL_RECORD_HPP
#define KRINO_FILES_CANONICAL_RECORD_HPP

#include <string_view>

namespace krino::files {

// True when `record` looks like an object whose keys are only id (a non-empty string),
// inputs / expectedOutputs / metadata (objects, all three present), actualOutputs (an object) and
// trace (anything but null), each at most once.
bool is_canonical_record(std::string_view record);

}  // namespace krino::files

#endif  // KRINO_FILES_CANONICAL_RECORD_HPP
