// Dataset URIs as users write them: a plain path, "file:relative/or/absolute" or
// "file:///absolute/path" (also "file://localhost/absolute/path"). No percent-decoding: the host
// hands the URI over exactly as written, and file names with '%' are taken literally.
#ifndef KRINO_FILES_FILE_URI_HPP
#define KRINO_FILES_FILE_URI_HPP

#include <string>
#include <string_view>

namespace krino::files {

// The file system path a dataset URI names. Throws krino::Error (INVALID_ARGUMENT) for an empty
// path and for "file://host/..." with a host other than localhost, which would otherwise be read
// silently as a relative path.
std::string path_from_file_uri(std::string_view uri);

// The default dataset name: the file name without its last extension ("qa.v2.jsonl" -> "qa.v2").
std::string file_stem(const std::string& path);

}  // namespace krino::files

#endif  // KRINO_FILES_FILE_URI_HPP
