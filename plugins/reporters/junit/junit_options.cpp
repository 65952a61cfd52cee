#include "junit_options.hpp"

#include <krino/evaluator_options.hpp>

namespace krino::junit {

JunitOptions JunitOptions::from_config(krino::Config config) {
  krino::apply_schema(config, kJunitOptionsSchema);
  JunitOptions options;
  options.path = krino::read_key_option(config, "path");
  options.system_out = config.get_bool("system_out");
  options.merge_failures = config.get_bool("merge_failures");
  const int64_t chars = config.get_int("max_text_chars");
  if (chars < 20 || chars > 1000000)
    throw krino::invalid_argument("option 'max_text_chars' must be between 20 and 1000000");
  options.max_text_chars = static_cast<std::size_t>(chars);
  return options;
}

}  // namespace krino::junit
