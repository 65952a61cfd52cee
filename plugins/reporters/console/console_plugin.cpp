// Registers the krino.console reporter: the plugin's only exported entry point lives here.
#include "console_options.hpp"
#include "console_reporter.hpp"

#include <krino/plugin.hpp>

KRINO_REPORTER(krino::console::ConsoleReporter, "krino.console", "console", "1.0.0",
               "Progress on the terminal while the experiment runs and a summary at the end",
               krino::console::kConsoleOptionsSchema);

KRINO_PLUGIN("krino.console", "console", "1.0.0", "krino", "Apache-2.0",
             "Terminal progress bar, per-item failure lines and an end-of-experiment summary");
