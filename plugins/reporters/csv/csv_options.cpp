#include "csv_options.hpp"

#include <krino/evaluator_options.hpp>

namespace krino::csv {

CsvOptions CsvOptions::from_config(krino::Config config) {
  krino::apply_schema(config, kCsvOptionsSchema);
  CsvOptions options;
  options.path = krino::read_key_option(config, "path");
  options.append = config.get_bool("append");
  options.line_ending = krino::read_choice(config, "line_ending", {"crlf", "lf"}) == "crlf" ? "\r\n" : "\n";
  options.formula_escape = config.get_bool("formula_escape");
  options.bom = config.get_bool("bom");
  const int64_t chars = config.get_int("max_text_chars");
  if (chars < 0 || chars > 100000000)
    throw krino::invalid_argument("option 'max_text_chars' must be between 0 and 100000000");
  options.max_text_chars = static_cast<std::size_t>(chars);
  return options;
}

}  // namespace krino::csv
