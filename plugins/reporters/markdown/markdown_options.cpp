#include "markdown_options.hpp"

#include <krino/evaluator_options.hpp>

#include <cstdlib>

namespace krino::markdown {

MarkdownOptions MarkdownOptions::from_config(krino::Config config,
                                             const std::function<const char*(const char*)>& getenv) {
  krino::apply_schema(config, kMarkdownOptionsSchema);
  MarkdownOptions options;
  // path and append have no schema default: left out, they depend on $GITHUB_STEP_SUMMARY.
  if (config.has("path")) {
    options.path = krino::read_key_option(config, "path");
  } else {
    const char* step_summary = getenv ? getenv(kStepSummaryVariable) : std::getenv(kStepSummaryVariable);
    if (step_summary != nullptr && *step_summary != '\0') {
      options.path = step_summary;
      options.append = true;  // other steps' commands may have written to it already
    }
  }
  if (config.has("append")) options.append = config.get_bool("append");
  const int64_t failures = config.get_int("max_failures");
  if (failures < 0 || failures > 1000) throw krino::invalid_argument("option 'max_failures' must be between 0 and 1000");
  options.max_failures = static_cast<std::size_t>(failures);
  const int64_t chars = config.get_int("max_text_chars");
  if (chars < 10 || chars > 10000) throw krino::invalid_argument("option 'max_text_chars' must be between 10 and 10000");
  options.max_text_chars = static_cast<std::size_t>(chars);
  return options;
}

}  // namespace krino::markdown
