// Registers the krino.csv reporter: the plugin's only exported entry point lives here.
#include "csv_options.hpp"
#include "csv_reporter.hpp"

#include <krino/plugin.hpp>

KRINO_REPORTER(krino::csv::CsvReporter, "krino.csv", "csv", "1.0.0",
               "One CSV row per item per run: verdict, outputs, each evaluator's score, pass and reason, metrics",
               krino::csv::kCsvOptionsSchema);

KRINO_PLUGIN("krino.csv", "csv", "1.0.0", "krino", "Apache-2.0",
             "RFC 4180 CSV of every item, for spreadsheets and data tools");
