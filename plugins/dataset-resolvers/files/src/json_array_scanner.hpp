// Streams the examples out of a JSON dataset file without parsing it whole. The root is either
//   {"name": "...", "description": "...", "examples": [ ... ], ...any other keys}
// or a bare array of examples. The scanner follows only what it needs to cut the file: strings
// (with their escapes), bracket nesting and the commas between the examples. Each example is
// copied out as raw bytes, with the line where it starts, for a JSON parser to take apart later.
//
// Errors in the file's structure (unterminated string, mismatched bracket, missing comma, a
// truncated file, text after the root) end the scan with krino::Error naming "path:line". Errors
// inside one example that leave its extent clear (a bad literal, a missing colon) are not seen
// here: the example's own parse reports them, and the rest of the file stays readable.
#ifndef KRINO_FILES_JSON_ARRAY_SCANNER_HPP
#define KRINO_FILES_JSON_ARRAY_SCANNER_HPP

#include "buffered_file.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace krino::files {

// The root's "name" and "description" strings, as far as the scanner has read.
struct JsonDatasetFields {
  bool root_is_array = false;
  std::optional<std::string> name;
  std::optional<std::string> description;
};

class JsonArrayScanner {
 public:
  // Reads from the start of the file to the opening bracket of the examples. Throws krino::Error
  // when the root is neither an object nor an array, or the object has no "examples" array.
  explicit JsonArrayScanner(BufferedFile file);

  // Cuts the next example into `element` (only counted when null) and sets `line` to the line
  // where it starts. Returns false after the last example.
  bool next_element(std::string* element, uint64_t& line);

  // After the last example: reads the rest of the root, so a "name" or "description" written
  // after the examples is seen, and checks that nothing but whitespace follows the root.
  void finish();

  const JsonDatasetFields& fields() const { return fields_; }
  const BufferedFile& file() const { return file_; }

 private:
  [[noreturn]] void fail(const std::string& reason) const;
  [[noreturn]] void fail_at(uint64_t line, const std::string& reason) const;
  int peek();
  bool refill();
  void release_scanned();
  void skip_whitespace();
  void skip_string_body();
  void skip_container();
  void skip_scalar();
  void skip_value();
  std::string read_key();
  // Reads one "key": value member of the root; true when it was "examples" (left at its '[').
  bool read_member(bool examples_seen);

  BufferedFile file_;
  const char* data_ = nullptr;  // the file's window, refreshed after every read_more/consume
  size_t size_ = 0;
  size_t pos_ = 0;              // scan position inside the window
  uint64_t line_ = 1;           // line of the byte at pos_
  JsonDatasetFields fields_;
  std::vector<char> closers_;   // expected closing brackets while skipping a container
  bool first_element_ = true;
  bool examples_done_ = false;
  bool finished_ = false;
};

}  // namespace krino::files

#endif  // KRINO_FILES_JSON_ARRAY_SCANNER_HPP
