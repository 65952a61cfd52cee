// The `path` option every file reporter declares, as JSON Schema text for its options schema.
// Header-only; a macro, so it joins the schema's other string literals at compile time.
#ifndef KRINO_REPORT_PATH_OPTION_HPP
#define KRINO_REPORT_PATH_OPTION_HPP

// `"path": {...}` with `default_path` (a string literal) as its default; no trailing comma.
#define KRINO_REPORT_PATH_OPTION(default_path)                                                                  \
  "\"path\": {\n"                                                                                               \
  "      \"description\": \"The file to write; missing parent directories are created. It is written under a " \
  "temporary name and renamed at the end, so it is never half-written. \\\"-\\\" writes to standard output.\",\n" \
  "      \"type\": \"string\",\n"                                                                               \
  "      \"minLength\": 1,\n"                                                                                   \
  "      \"default\": \"" default_path "\"\n"                                                                   \
  "    }"

#endif  // KRINO_REPORT_PATH_OPTION_HPP
