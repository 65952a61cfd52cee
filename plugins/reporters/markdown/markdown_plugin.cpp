// Registers the krino.markdown reporter: the plugin's only exported entry point lives here.
#include "markdown_options.hpp"
#include "markdown_reporter.hpp"

#include <krino/plugin.hpp>

KRINO_REPORTER(krino::markdown::MarkdownReporter, "krino.markdown", "markdown", "1.0.0",
               "A Markdown summary for $GITHUB_STEP_SUMMARY and pull-request comments",
               krino::markdown::kMarkdownOptionsSchema);

KRINO_PLUGIN("krino.markdown", "markdown", "1.0.0", "krino", "Apache-2.0",
             "GitHub-flavoured Markdown summary of an experiment: pass rate, evaluators, cost, failures");
