// Builds a canonical krino.example/1 object from one CSV row's fields and the header's columns.
// Every value is a string, as written in the file (an empty cell is ""); a short row simply lacks
// its trailing columns, and an empty id cell means no id.
#ifndef KRINO_FILES_CSV_EXAMPLE_HPP
#define KRINO_FILES_CSV_EXAMPLE_HPP

#include "csv_columns.hpp"

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace krino::files {

// Throws krino::Error (INVALID_ARGUMENT) when the row has more fields than the header has columns.
boost::json::object build_csv_example(const std::vector<CsvColumn>& columns, const std::vector<std::string>& fields);

}  // namespace krino::files

#endif  // KRINO_FILES_CSV_EXAMPLE_HPP
