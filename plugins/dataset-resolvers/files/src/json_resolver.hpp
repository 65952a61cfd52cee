// The `json` dataset resolver component: a JSON file whose root is
// {"name", "description", "examples": [...]} or a bare array of examples. Read as a stream: only
// one example is held at a time, whatever the file's size.
#ifndef KRINO_FILES_JSON_RESOLVER_HPP
#define KRINO_FILES_JSON_RESOLVER_HPP

#include "json_array_scanner.hpp"
#include "field_mapping.hpp"
#include "source_location.hpp"

#include <krino/plugin.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace krino::files {

class JsonResolver {
 public:
  // A file up to 1 GiB, or a root object without both "name" and "description" before
  // "examples", is scanned whole once at open: that finds a "name" written after the examples,
  // counts them for the size hint and reports a broken structure before the run starts.
  JsonResolver(const krino_host* host, std::string uri, const Config& options, DatasetInfo& info);

  // [serial] Cuts the next example. A broken file structure ends the stream with krino::Error
  // ("path:line: reason"); a malformed example inside a sound structure is decode()'s to report.
  Next next(std::string& record, std::string& location, std::string& error);

  // [thread-safe] One example's bytes into a canonical example (see example_normalizer.hpp).
  std::string decode(std::string_view record) const;
  // A record already in canonical shape goes to the host as it is (see canonical_record.hpp),
  // unless a field mapping builds every example.
  bool record_is_example(std::string_view record) const;

 private:
  JsonResolver(const std::string& path, const Config& options, DatasetInfo& info);

  SourceLocation where_;
  std::optional<FieldMapping> fields_;
  JsonArrayScanner scanner_;
};

}  // namespace krino::files

#endif  // KRINO_FILES_JSON_RESOLVER_HPP
