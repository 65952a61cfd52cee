// The `jsonl` dataset resolver component: a JSON Lines file, one example object per line.
// next() only cuts lines; decode() parses and normalizes them, in parallel on the host's workers.
#ifndef KRINO_FILES_JSONL_RESOLVER_HPP
#define KRINO_FILES_JSONL_RESOLVER_HPP

#include "jsonl_stream.hpp"
#include "field_mapping.hpp"
#include "source_location.hpp"

#include <krino/plugin.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace krino::files {

class JsonlResolver {
 public:
  JsonlResolver(const krino_host* host, std::string uri, const Config& options, DatasetInfo& info);

  // [serial] Cuts the next non-blank line. Never Next::bad: every problem of a line is its own,
  // and decode() reports it.
  Next next(std::string& record, std::string& location, std::string& error);

  // [thread-safe] One line into a canonical example (see example_normalizer.hpp).
  std::string decode(std::string_view record) const;
  // A record already in canonical shape goes to the host as it is (see canonical_record.hpp),
  // unless a field mapping builds every example.
  bool record_is_example(std::string_view record) const;

 private:
  JsonlResolver(const std::string& path, const Config& options, DatasetInfo& info);

  SourceLocation where_;
  std::optional<FieldMapping> fields_;
  JsonlStream lines_;
};

}  // namespace krino::files

#endif  // KRINO_FILES_JSONL_RESOLVER_HPP
