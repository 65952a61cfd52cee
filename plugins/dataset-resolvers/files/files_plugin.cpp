// krino-files: the dataset resolvers for local files (JSON Lines, JSON, CSV). Formats, shapes and
// options: docs/plugins/files.md.
#include "csv_resolver.hpp"
#include "json_resolver.hpp"
#include "jsonl_resolver.hpp"
#include "option_schemas.hpp"

#include <krino/plugin.hpp>

KRINO_DATASET_RESOLVER(krino::files::JsonlResolver, "krino.files.jsonl", "jsonl", "1.0.0",
                       "JSON Lines file: one example object per line, streamed", "file", ".jsonl,.ndjson",
                       krino::files::kJsonlOptionsSchema);
KRINO_DATASET_RESOLVER(krino::files::JsonResolver, "krino.files.json", "json", "1.0.0",
                       "JSON file: {name, description, examples: [...]} or an array of examples, streamed", "file",
                       ".json", krino::files::kJsonOptionsSchema);
KRINO_DATASET_RESOLVER(krino::files::CsvResolver, "krino.files.csv", "csv", "1.0.0",
                       "CSV file (RFC 4180) with a header row and an input column, streamed", "file", ".csv",
                       krino::files::kCsvOptionsSchema);

KRINO_PLUGIN("krino.files", "files", "1.0.0", "krino", "Apache-2.0",
             "Dataset resolvers for local JSON Lines, JSON and CSV files");
