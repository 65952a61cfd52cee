#include "krino/core/plugin/plugin_discovery.hpp"

#include "krino/core/version.hpp"

#include <algorithm>
#include <set>
#include <system_error>

namespace krino::core {
namespace fs = std::filesystem;

std::vector<fs::path> plugin_search_dirs(const PluginSearch& search) {
  std::vector<fs::path> dirs;
  std::set<fs::path> seen;
  auto add = [&](const fs::path& dir) {
    if (dir.empty()) return;
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(dir, ec);
    if (ec) canonical = dir;
    if (seen.insert(canonical).second) dirs.push_back(dir);
  };
  for (const auto& dir : search.plugin_dirs) add(dir);
  if (search.plugin_path_env) {
    std::string_view rest = *search.plugin_path_env;
    while (!rest.empty()) {
      size_t colon = rest.find(':');
      add(fs::path(std::string(rest.substr(0, colon))));
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  if (search.executable) add((search.executable->parent_path() / ".." / "lib" / "krino" / "plugins").lexically_normal());
  if (search.include_install_dir) add(fs::path(kInstalledPluginDir));
  return dirs;
}

std::vector<fs::path> find_plugin_files(const std::vector<fs::path>& dirs) {
  std::vector<fs::path> files;
  std::set<fs::path> seen;
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    std::vector<fs::path> here;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path& p = it->path();
      if (p.extension() == ".so" && it->is_regular_file(ec)) here.push_back(p);
    }
    std::sort(here.begin(), here.end());
    for (auto& p : here) {
      std::error_code cec;
      fs::path canonical = fs::canonical(p, cec);
      if (seen.insert(cec ? p : canonical).second) files.push_back(std::move(p));
    }
  }
  return files;
}

std::string plugin_selection_name(const fs::path& file) {
  std::string stem = file.stem().string();
  constexpr std::string_view prefix = "krino-";
  if (stem.size() > prefix.size() && stem.compare(0, prefix.size(), prefix) == 0) stem.erase(0, prefix.size());
  return stem;
}

}  // namespace krino::core
