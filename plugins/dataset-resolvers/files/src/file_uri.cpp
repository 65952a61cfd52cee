#include "file_uri.hpp"

#include <krino/plugin.hpp>

#include <filesystem>

namespace krino::files {
namespace {

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != prefix[i]) return false;
  }
  return true;
}

}  // namespace

std::string path_from_file_uri(std::string_view uri) {
  std::string_view path = uri;
  if (starts_with_ignoring_case(uri, "file://")) {
    std::string_view rest = uri.substr(7);
    if (starts_with_ignoring_case(rest, "localhost/")) rest.remove_prefix(9);
    if (rest.empty() || rest.front() != '/') {
      const std::string_view host = rest.substr(0, rest.find('/'));
      throw invalid_argument("'" + std::string(uri) + "' names the host '" + std::string(host) +
                             "'; write file:" + std::string(rest) + " for a relative path or file:///abs/path for an "
                             "absolute one");
    }
    path = rest;
  } else if (starts_with_ignoring_case(uri, "file:")) {
    path = uri.substr(5);
  }
  if (path.empty()) throw invalid_argument("the dataset URI '" + std::string(uri) + "' names no file");
  return std::string(path);
}

std::string file_stem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

}  // namespace krino::files
