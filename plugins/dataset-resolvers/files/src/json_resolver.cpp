#include "json_resolver.hpp"

#include "canonical_record.hpp"

#include "counting_pass.hpp"
#include "dataset_options.hpp"
#include "example_normalizer.hpp"
#include "file_uri.hpp"
#include "json_record_parser.hpp"

#include <krino/json_text.hpp>

namespace krino::files {

JsonResolver::JsonResolver(const krino_host*, std::string uri, const Config& options, DatasetInfo& info)
    : JsonResolver(path_from_file_uri(uri), options, info) {}

JsonResolver::JsonResolver(const std::string& path, const Config& options, DatasetInfo& info)
    : where_(path), fields_(FieldMapping::from_options(options)), scanner_(BufferedFile(path)) {
  const DatasetOptions chosen = read_dataset_options(options, {"name", "description", "fields"});
  JsonDatasetFields fields = scanner_.fields();
  const bool header_complete = fields.root_is_array || (fields.name && fields.description);
  // A header that ends after the examples (name or description below them) needs the whole file
  // read once before the run: done for a regular file, of any size; a pipe is read once, so its
  // names come from the options or the file name.
  if (worth_counting(scanner_.file()) || (!header_complete && scanner_.file().rereadable())) {
    JsonArrayScanner counter{BufferedFile(path)};
    uint64_t count = 0;
    uint64_t line = 0;
    while (counter.next_element(nullptr, line)) ++count;
    counter.finish();
    fields = counter.fields();
    if (count == 0) throw no_examples_error(path);
    info.size_hint = count;
  }
  info.name = chosen.name ? *chosen.name : fields.name.value_or(file_stem(path));
  info.description = chosen.description ? *chosen.description : fields.description.value_or("");
}

Next JsonResolver::next(std::string& record, std::string& location, std::string&) {
  uint64_t line = 0;
  if (!scanner_.next_element(&record, line)) {
    scanner_.finish();
    return Next::end;
  }
  where_.format(line, location);
  return Next::record;
}

bool JsonResolver::record_is_example(std::string_view record) const { return !fields_ && is_canonical_record(record); }

std::string JsonResolver::decode(std::string_view record) const {
  if (fields_) return json::to_compact_json(fields_->apply(boost::json::value(parse_json_record(record))));
  // Parsed to check it (syntax, an object, no key twice); the example is built from its bytes.
  parse_json_record(record);
  return normalize_example(record);
}

}  // namespace krino::files
