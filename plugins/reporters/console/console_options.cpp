#include "console_options.hpp"

#include <array>
#include <string_view>

namespace krino::console {

ConsoleOptions ConsoleOptions::from_config(krino::Config config) {
  config.use_schema_defaults(kConsoleOptionsSchema);
  static constexpr std::array<std::string_view, 5> known{"progress", "color", "stream", "items", "max_failures_shown"};
  for (const auto& entry : config.json()) {
    bool found = false;
    for (auto name : known) found = found || entry.key() == name;
    if (!found) throw krino::invalid_argument("unknown option '" + std::string(entry.key()) + "'");
  }

  ConsoleOptions options;
  options.progress = parse_when("progress", config.get_string("progress"));
  options.color = parse_when("color", config.get_string("color"));

  const std::string stream = config.get_string("stream");
  if (stream == "stdout") {
    options.stream = SummaryStream::standard_output;
  } else if (stream == "stderr") {
    options.stream = SummaryStream::standard_error;
  } else {
    throw krino::invalid_argument("option 'stream' must be \"stdout\" or \"stderr\", not \"" + stream + "\"");
  }

  const std::string items = config.get_string("items");
  if (items == "failures") options.items = ItemLines::failures;
  else if (items == "all") options.items = ItemLines::all;
  else throw krino::invalid_argument("option 'items' must be \"failures\" or \"all\", not \"" + items + "\"");

  const int64_t shown = config.get_int("max_failures_shown");
  if (shown < 0 || static_cast<uint64_t>(shown) > kMaxFailuresShownLimit)
    throw krino::invalid_argument("option 'max_failures_shown' must be between 0 and " +
                                  std::to_string(kMaxFailuresShownLimit));
  options.max_failures_shown = static_cast<std::size_t>(shown);
  return options;
}

}  // namespace krino::console
