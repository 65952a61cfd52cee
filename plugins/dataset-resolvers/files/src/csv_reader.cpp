#include "csv_reader.hpp"

#include "byte_scan.hpp"

namespace krino::files {
namespace {

enum class State {
  field_start,   // at the start of a field, possibly after blanks
  unquoted,      // inside an unquoted field
  quoted,        // inside a quoted field
  closing_quote  // just after a quote inside a quoted field: "" or the end of the field
};

}  // namespace

CsvReader::Row CsvReader::next(std::string_view& row, uint64_t& first_line) {
  file_.consume(consume_on_next_);
  consume_on_next_ = 0;
  if (at_file_start_) {
    at_file_start_ = false;
    while (file_.window().size() < kByteOrderMark.size() && file_.read_more()) {
    }
    if (file_.window().substr(0, kByteOrderMark.size()) == kByteOrderMark) file_.consume(kByteOrderMark.size());
  }
  for (;;) {
    State state = State::field_start;
    bool blank = true;
    uint64_t breaks_inside = 0;  // line breaks inside quoted fields
    uint64_t quote_line = line_;
    size_t i = 0;
    size_t terminator = 0;
    bool unterminated = false;
    for (;;) {
      std::string_view window = file_.window();
      if (i >= window.size()) {
        if (file_.read_more()) continue;
        unterminated = state == State::quoted;
        break;  // end of file ends the row
      }
      if (state == State::quoted) {
        // Jump to the next quote; only line breaks on the way matter.
        const size_t quote = find_byte(window.data(), i, window.size(), '"');
        breaks_inside += count_line_breaks(window.data(), i, quote);
        i = quote;
        if (quote < window.size()) {
          ++i;
          state = State::closing_quote;
        }
        continue;
      }
      if (state == State::unquoted) {
        // Jump over the field's ordinary bytes.
        i = field_end_bytes_.find_first(window.data(), i, window.size());
        if (i >= window.size()) continue;
      }
      const char c = window[i];
      if (state == State::closing_quote) {
        if (c == '"') {  // a doubled quote: still inside the field
          ++i;
          state = State::quoted;
          continue;
        }
        state = State::unquoted;  // whatever follows is judged by split_csv_fields
      }
      if (c == '\n' || c == '\r') {
        terminator = 1;
        if (c == '\r') {
          while (i + 1 >= file_.window().size() && file_.read_more()) {
          }
          if (i + 1 < file_.window().size() && file_.window()[i + 1] == '\n') terminator = 2;
        }
        break;
      }
      if (c == delimiter_) {
        state = State::field_start;
        blank = false;
      } else if (c == '"' && state == State::field_start) {
        state = State::quoted;
        quote_line = line_ + breaks_inside;
        blank = false;
      } else if (c != ' ' && !(c == '\t' && delimiter_ != '\t')) {
        if (state == State::field_start) state = State::unquoted;
        blank = false;
      }
      ++i;
    }

    const uint64_t row_line = line_;
    line_ += breaks_inside + (terminator > 0 ? 1 : 0);
    if (i == 0 && terminator == 0) return Row::end;
    if (blank && !unterminated) {
      file_.consume(i + terminator);
      continue;
    }
    row = file_.window().substr(0, i);
    consume_on_next_ = i + terminator;
    if (unterminated) {
      first_line = quote_line;
      return Row::unterminated;
    }
    first_line = row_line;
    return Row::record;
  }
}

uint64_t count_csv_records(const std::string& path, char delimiter) {
  CsvReader reader(BufferedFile(path), delimiter);
  std::string_view row;
  uint64_t line = 0;
  uint64_t count = 0;
  while (reader.next(row, line) != CsvReader::Row::end) ++count;
  return count > 0 ? count - 1 : 0;
}

}  // namespace krino::files
