#include "krino/core/process/process_spec.hpp"

#include <unistd.h>

namespace krino::core {
namespace {

bool is_executable_file(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<std::string> find_executable(const std::string& name, const std::filesystem::path& working_directory,
                                           std::string_view search_path) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos) {
    std::filesystem::path path(name);
    if (path.is_relative()) path = working_directory / path;
    path = path.lexically_normal();
    return is_executable_file(path) ? std::optional(path.string()) : std::nullopt;
  }
  while (true) {
    const auto colon = search_path.find(':');
    const std::string_view entry = search_path.substr(0, colon);
    std::filesystem::path directory = entry.empty() ? working_directory : std::filesystem::path(entry);
    if (directory.is_relative()) directory = working_directory / directory;
    const std::filesystem::path candidate = (directory / name).lexically_normal();
    if (is_executable_file(candidate)) return candidate.string();
    if (colon == std::string_view::npos) return std::nullopt;
    search_path.remove_prefix(colon + 1);
  }
}

}  // namespace krino::core
