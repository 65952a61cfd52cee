#pragma once
// Writing a file so that a reader, or the file system after a crash, sees the old content or the
// new, never half of it.
#include <filesystem>
#include <string_view>

namespace krino::core {

// Writes `content` to `path` through the SDK's io::AtomicFile (<krino/io/atomic_file.hpp>): a
// temporary file beside `path`, synced, renamed over it, the directory synced. Creates the parent
// directory. Throws a runtime error naming the path and the reason. `mode` is the new file's, less
// the umask (0600 for what only the user may read).
void write_file_atomically(const std::filesystem::path& path, std::string_view content, unsigned mode = 0666);

}  // namespace krino::core
