// The `csv` dataset resolver component: an RFC 4180 CSV file with a header row. next() cuts rows
// (quote-aware, so line breaks inside quoted fields stay in their row); decode() splits the row
// into fields and maps them to an example by the header's columns, in parallel.
#ifndef KRINO_FILES_CSV_RESOLVER_HPP
#define KRINO_FILES_CSV_RESOLVER_HPP

#include "csv_columns.hpp"
#include "csv_reader.hpp"
#include "source_location.hpp"

#include <krino/plugin.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace krino::files {

class CsvResolver {
 public:
  // Reads the header at open: an empty file or one without an 'input' column fails here.
  CsvResolver(const krino_host* host, std::string uri, const Config& options, DatasetInfo& info);

  // [serial] Cuts the next row. A quoted field that never closes gives Next::bad at the line of
  // its opening quote, and then the end of the stream (the quote took the rest of the file).
  Next next(std::string& record, std::string& location, std::string& error);

  // [thread-safe] One row into a canonical example (see csv_example.hpp).
  boost::json::object decode(std::string_view record) const;

 private:
  CsvResolver(const std::string& path, const Config& options, DatasetInfo& info);

  SourceLocation where_;
  char delimiter_;
  CsvReader rows_;
  std::vector<CsvColumn> columns_;
};

}  // namespace krino::files

#endif  // KRINO_FILES_CSV_RESOLVER_HPP
