#include "canonical_record.hpp"

#include <krino/json_spans.hpp>

#include <cstddef>
#include <string_view>

namespace krino::files {

// A shape check by key scan, not a parse: the host validates every example's syntax itself (and
// reports a record that is not valid JSON), so validating here too would read every record twice.
// A record that does not look canonical goes to the normalising path, which parses it.
bool is_canonical_record(std::string_view record) {
  const std::size_t begin = record.find_first_not_of(" \t\r\n");
  const std::size_t last = record.find_last_not_of(" \t\r\n");
  if (begin == std::string_view::npos || record[begin] != '{' || record[last] != '}') return false;
  const std::string_view object = record.substr(begin, last - begin + 1);

  constexpr unsigned kId = 1, kInputs = 2, kExpected = 4, kMetadata = 8, kActual = 16, kTrace = 32;
  constexpr unsigned kMapsMask = kInputs | kExpected | kMetadata;
  unsigned seen = 0;
  bool canonical = true;
  std::size_t end_of_members = 1;  // just past the last member's value, relative to `object`
  json::for_each_member(object, [&](std::string_view key, std::string_view value) {
    unsigned bit = 0;
    bool ok = false;
    const char first = value.empty() ? '\0' : value.front();
    if (json::key_equals(key, "inputs")) bit = kInputs, ok = first == '{';
    else if (json::key_equals(key, "expectedOutputs")) bit = kExpected, ok = first == '{';
    else if (json::key_equals(key, "metadata")) bit = kMetadata, ok = first == '{';
    else if (json::key_equals(key, "actualOutputs")) bit = kActual, ok = first == '{';
    else if (json::key_equals(key, "id")) bit = kId, ok = first == '"' && value.size() > 2;
    else if (json::key_equals(key, "trace")) bit = kTrace, ok = !value.empty() && value != "null";
    // A key twice in a section is decode()'s to report, as a duplicate top-level key is.
    if (ok && (bit & (kInputs | kExpected | kMetadata | kActual)) != 0 && json::has_repeated_key(value)) ok = false;
    if (!ok || (seen & bit) != 0) {
      canonical = false;
      return false;
    }
    seen |= bit;
    end_of_members = static_cast<std::size_t>(value.data() + value.size() - object.data());
    return true;
  });
  if (!canonical || (seen & kMapsMask) != kMapsMask) return false;
  // Only white space may follow the last member before the closing brace; anything else (a member
  // the scan could not read) sends the record down the normalising path.
  return object.find_first_not_of(" \t\r\n", end_of_members) == object.size() - 1;
}

}  // namespace krino::files
