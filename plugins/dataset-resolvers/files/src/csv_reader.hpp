// Cuts a CSV file (RFC 4180) into rows, one at a time, without splitting them into fields: it
// follows quoting only far enough to know which line breaks end a row, so the serial part of
// reading stays a light scan and the field splitting can run in parallel (see csv_fields.hpp).
//
// Rows end at CR, LF or CRLF outside quotes; inside a quoted field they are part of the value.
// A quote opens a quoted field only as the first character of a field (after blanks), exactly as
// split_csv_fields() reads it. A leading UTF-8 byte order mark is dropped, and rows made only of
// blanks (spaces, and tabs unless the delimiter is a tab) are skipped.
#ifndef KRINO_FILES_CSV_READER_HPP
#define KRINO_FILES_CSV_READER_HPP

#include "buffered_file.hpp"
#include "byte_scan.hpp"

#include <cstdint>
#include <string_view>

namespace krino::files {

class CsvReader {
 public:
  enum class Row {
    record,        // a row was cut
    unterminated,  // a quoted field never closes: `row` holds the rest of the file
    end            // no more rows
  };

  CsvReader(BufferedFile file, char delimiter)
      : file_(std::move(file)), delimiter_(delimiter), field_end_bytes_{delimiter, '\r', '\n'} {}

  // The next non-blank row without its line break; `first_line` is the 1-based line where it
  // starts (for an unterminated row: where its open quote is). `row` stays valid until the next
  // call. Throws krino::Error on a read error.
  Row next(std::string_view& row, uint64_t& first_line);

  const BufferedFile& file() const { return file_; }

 private:
  BufferedFile file_;
  char delimiter_;
  ByteSet field_end_bytes_;      // what ends an unquoted field
  uint64_t line_ = 1;            // the line where the next row starts
  bool at_file_start_ = true;
  size_t consume_on_next_ = 0;   // the row handed out last, released on the next call
};

// Counts the rows CsvReader would yield after the header row (unterminated ones included).
uint64_t count_csv_records(const std::string& path, char delimiter);

}  // namespace krino::files

#endif  // KRINO_FILES_CSV_READER_HPP
