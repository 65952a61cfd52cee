// Registers the krino.json reporter: the plugin's only exported entry point lives here.
#include "json_options.hpp"
#include "json_reporter.hpp"

#include <krino/plugin.hpp>

KRINO_REPORTER(krino::jsonl::JsonReporter, "krino.json", "json", "1.0.0",
               "Writes every event as one line of a JSON Lines file", krino::jsonl::kJsonOptionsSchema);

KRINO_PLUGIN("krino.json", "json", "1.0.0", "krino", "Apache-2.0",
             "JSON Lines output of every experiment event, a stable format for other tools");
