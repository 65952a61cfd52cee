// Registers the krino.junit reporter: the plugin's only exported entry point lives here.
#include "junit_options.hpp"
#include "junit_reporter.hpp"

#include <krino/plugin.hpp>

KRINO_REPORTER(krino::junit::JunitReporter, "krino.junit", "junit", "1.0.0",
               "JUnit XML for CI: a test case per item, a failure per failing evaluator, item errors as errors",
               krino::junit::kJunitOptionsSchema);

KRINO_PLUGIN("krino.junit", "junit", "1.0.0", "krino", "Apache-2.0",
             "JUnit XML report readable by GitHub, GitLab and Jenkins");
