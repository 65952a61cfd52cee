#include "csv_resolver.hpp"

#include "byte_scan.hpp"
#include "counting_pass.hpp"
#include "csv_example.hpp"
#include "csv_fields.hpp"
#include "dataset_options.hpp"
#include "file_uri.hpp"
#include "option_schemas.hpp"

namespace krino::files {
namespace {

// The delimiter as set, else the schema's default (a copy of the options gets the schema, so a
// resolver created directly, in a test say, reads the same value).
char read_delimiter(Config options) {
  options.use_schema_defaults(kCsvOptionsSchema);
  const std::string text = options.get_string("delimiter");
  if (text.size() != 1 || static_cast<unsigned char>(text[0]) >= 0x80)
    throw invalid_argument("option 'delimiter' must be one ASCII character, not '" + text + "'");
  if (text[0] == '"' || text[0] == '\r' || text[0] == '\n')
    throw invalid_argument("option 'delimiter' cannot be a quote or a line break");
  return text[0];
}

}  // namespace

CsvResolver::CsvResolver(const krino_host*, std::string uri, const Config& options, DatasetInfo& info)
    : CsvResolver(path_from_file_uri(uri), options, info) {}

CsvResolver::CsvResolver(const std::string& path, const Config& options, DatasetInfo& info)
    : where_(path), delimiter_(read_delimiter(options)), rows_(BufferedFile(path), delimiter_) {
  const DatasetOptions chosen = read_dataset_options(options, {"name", "description", "delimiter"});
  info.name = chosen.name.value_or(file_stem(path));
  info.description = chosen.description.value_or("");

  std::string_view header_row;
  uint64_t header_line = 0;
  switch (rows_.next(header_row, header_line)) {
    case CsvReader::Row::end:
      throw invalid_argument("'" + path + "' is empty; a CSV dataset needs a header row with an 'input' column");
    case CsvReader::Row::unterminated:
      throw invalid_argument(where_.at(header_line) + ": a quote in the header row never closes");
    case CsvReader::Row::record:
      break;
  }
  std::vector<std::string> header;
  try {
    split_csv_fields(header_row, delimiter_, header);
  } catch (const Error& e) {
    throw invalid_argument(where_.at(header_line) + ": header row: " + e.what());
  }
  // One byte order mark opens the file and is dropped by the reader; a second one (a tool that
  // added its own to a file that had one) would glue U+FEFF to the first column's name and turn
  // `id` or `input` into metadata silently.
  if (!header.empty() && std::string_view(header.front()).substr(0, kByteOrderMark.size()) == kByteOrderMark)
    throw invalid_argument(where_.at(header_line) +
                           ": the header's first column starts with a second byte order mark (U+FEFF); "
                           "the file begins with two: remove one");
  columns_ = read_csv_columns(header, path);

  if (worth_counting(rows_.file())) {
    const uint64_t count = count_csv_records(path, delimiter_);
    if (count == 0) throw no_examples_error(path);
    info.size_hint = count;
  }
}

Next CsvResolver::next(std::string& record, std::string& location, std::string& error) {
  std::string_view row;
  uint64_t line = 0;
  switch (rows_.next(row, line)) {
    case CsvReader::Row::end:
      return Next::end;
    case CsvReader::Row::unterminated:
      where_.format(line, location);
      error = "a quoted field opened on this line never closes; it runs to the end of the file";
      return Next::bad;
    case CsvReader::Row::record:
      break;
  }
  record.assign(row);
  where_.format(line, location);
  return Next::record;
}

boost::json::object CsvResolver::decode(std::string_view record) const {
  std::vector<std::string> fields;
  fields.reserve(columns_.size());
  split_csv_fields(record, delimiter_, fields);
  return build_csv_example(columns_, fields);
}

}  // namespace krino::files
