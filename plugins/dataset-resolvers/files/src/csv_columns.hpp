// What each column of a CSV dataset means, read from its header row. Header names are trimmed and
// matched without regard to case:
//   input                                       -> inputs.input (required)
//   expectedOutput | expected_output | output   -> expectedOutputs.output (the first such column
//                                                  in header order; any other one is metadata)
//   actualOutput | actual_output                -> actualOutputs.output (first one, likewise)
//   id                                          -> the example's id (not repeated in metadata)
//   anything else                               -> metadata, under the name as written
// A column with an empty name (the index column pandas writes) is ignored.
#ifndef KRINO_FILES_CSV_COLUMNS_HPP
#define KRINO_FILES_CSV_COLUMNS_HPP

#include <string>
#include <vector>

namespace krino::files {

enum class CsvRole { input, expected_output, actual_output, id, metadata, ignored };

struct CsvColumn {
  CsvRole role;
  std::string name;  // trimmed, as written
};

// Throws krino::Error (INVALID_ARGUMENT) naming `path` when there is no input column or when two
// columns share a name (ignoring case), which would make one silently overwrite the other.
std::vector<CsvColumn> read_csv_columns(const std::vector<std::string>& header, const std::string& path);

}  // namespace krino::files

#endif  // KRINO_FILES_CSV_COLUMNS_HPP
