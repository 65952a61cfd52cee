// Registers the krino.server reporter: the plugin's only exported entry point lives here.
#include "server_options.hpp"
#include "server_reporter.hpp"

#include <krino/plugin.hpp>

KRINO_REPORTER(krino::server::ServerReporter, "krino.server", "server", "1.0.0",
               "Sends every item to a krino results server as the run goes, spooling what it cannot deliver",
               krino::server::kServerOptionsSchema);

KRINO_PLUGIN("krino.server", "server", "1.0.0", "krino", "Apache-2.0",
             "The client of krino serve: runs reported live, in batches, with retries and a spool");
