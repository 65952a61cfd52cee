// The JSON Schemas (draft 7) of each resolver's options. The host validates a dataset's options
// against them and prints them in `krino plugins info`; docs/plugins/files.md explains them.
#ifndef KRINO_FILES_OPTION_SCHEMAS_HPP
#define KRINO_FILES_OPTION_SCHEMAS_HPP

namespace krino::files {

extern const char* const kJsonlOptionsSchema;
extern const char* const kJsonOptionsSchema;
extern const char* const kCsvOptionsSchema;

}  // namespace krino::files

#endif  // KRINO_FILES_OPTION_SCHEMAS_HPP
