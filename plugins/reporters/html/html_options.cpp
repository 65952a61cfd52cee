#include "html_options.hpp"

#include <krino/evaluator_options.hpp>

namespace krino::html {
namespace {

std::size_t read_html_bounded(const krino::Config& config, const char* key, int64_t low, int64_t high) {
  const int64_t value = config.get_int(key);
  if (value < low || value > high)
    throw krino::invalid_argument(std::string("option '") + key + "' must be between " + std::to_string(low) + " and " +
                                  std::to_string(high));
  return static_cast<std::size_t>(value);
}

}  // namespace

HtmlOptions HtmlOptions::from_config(krino::Config config) {
  krino::apply_schema(config, kHtmlOptionsSchema);
  HtmlOptions options;
  options.path = krino::read_key_option(config, "path");
  options.max_items = read_html_bounded(config, "max_items", 0, 10000000);
  options.max_text_chars = read_html_bounded(config, "max_text_chars", 20, 1000000);
  options.histogram_bins = read_html_bounded(config, "histogram_bins", 2, 100);
  return options;
}

}  // namespace krino::html
