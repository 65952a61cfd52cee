#include "markdown_options.hpp"

#include <krino/evaluator_options.hpp>

#include <cstdlib>

namespace krino::markdown {

MarkdownOptions MarkdownOptions::from_config(const krino::Config& config,
                                             const std::function<const char*(const char*)>& getenv) {
  krino::check_option_names(config, kMarkdownOptionsSchema);
  MarkdownOptions options;
  if (config.has("path")) {
    options.path = krino::read_key_option(config, "path", "");
  } else {
    const char* step_summary = getenv ? getenv(kStepSummaryVariable) : std::getenv(kStepSummaryVariable);
    if (step_summary != nullptr && *step_summary != '\0') {
      options.path = step_summary;
      options.append = true;  // other steps' commands may have written to it already
    }
  }
  options.append = config.get_bool("append", options.append);
  const int64_t failures = config.get_int("max_failures", 20);
  if (failures < 0 || failures > 1000) throw krino::invalid_argument("option 'max_failures' must be between 0 and 1000");
  options.max_failures = static_cast<std::size_t>(failures);
  const int64_t chars = config.get_int("max_text_chars", 200);
  if (chars < 10 || chars > 10000) throw krino::invalid_argument("option 'max_text_chars' must be between 10 and 10000");
  options.max_text_chars = static_cast<std::size_t>(chars);
  return options;
}

}  // namespace krino::markdown
