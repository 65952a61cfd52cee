#include "jsonl_resolver.hpp"

#include "canonical_record.hpp"

#include "counting_pass.hpp"
#include "dataset_options.hpp"
#include "example_normalizer.hpp"
#include "file_uri.hpp"
#include "json_record_parser.hpp"

#include <krino/json_text.hpp>

namespace krino::files {

JsonlResolver::JsonlResolver(const krino_host*, std::string uri, const Config& options, DatasetInfo& info)
    : JsonlResolver(path_from_file_uri(uri), options, info) {}

JsonlResolver::JsonlResolver(const std::string& path, const Config& options, DatasetInfo& info)
    : where_(path), fields_(FieldMapping::from_options(options)), lines_(BufferedFile(path)) {
  const DatasetOptions chosen = read_dataset_options(options, {"name", "description", "fields"});
  info.name = chosen.name.value_or(file_stem(path));
  info.description = chosen.description.value_or("");
  if (worth_counting(lines_.file())) {
    const uint64_t count = count_jsonl_records(path);
    if (count == 0) throw no_examples_error(path);
    info.size_hint = count;
  }
}

Next JsonlResolver::next(std::string& record, std::string& location, std::string&) {
  std::string_view line;
  uint64_t line_number = 0;
  if (!lines_.next(line, line_number)) return Next::end;
  record.assign(line);
  where_.format(line_number, location);
  return Next::record;
}

bool JsonlResolver::record_is_example(std::string_view record) const { return !fields_ && is_canonical_record(record); }

std::string JsonlResolver::decode(std::string_view record) const {
  if (fields_) return json::to_compact_json(fields_->apply(boost::json::value(parse_json_record(record))));
  // Parsed to check it (syntax, an object, no key twice); the example is built from its bytes.
  parse_json_record(record);
  return normalize_example(record);
}

}  // namespace krino::files
