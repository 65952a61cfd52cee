// Registers the krino.html reporter: the plugin's only exported entry point lives here.
#include "html_options.hpp"
#include "html_reporter.hpp"

#include <krino/plugin.hpp>

KRINO_REPORTER(krino::html::HtmlReporter, "krino.html", "html", "1.0.0",
               "One self-contained HTML report: summary, evaluator statistics, score histograms, a filterable item table",
               krino::html::kHtmlOptionsSchema);

KRINO_PLUGIN("krino.html", "html", "1.0.0", "krino", "Apache-2.0",
             "Self-contained, offline HTML report of an experiment, in light and dark mode");
