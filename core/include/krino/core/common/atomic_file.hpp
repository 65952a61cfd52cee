#pragma once
// Writing a file so that a reader sees the old content or the new, never half of it.
#include <filesystem>
#include <string_view>

namespace krino::core {

// Writes `content` to a temporary file next to `path`, then renames it over `path`. Creates the
// parent directory. Throws a runtime error naming the path.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace krino::core
