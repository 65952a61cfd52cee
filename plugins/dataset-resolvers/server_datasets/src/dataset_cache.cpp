#include "dataset_cache.hpp"

#include <krino/io/atomic_file.hpp>
#include <krino/plugin/error.hpp>

#include <cstdlib>
#include <fstream>

namespace krino::server_datasets {

std::optional<std::filesystem::path> default_cache_root() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/') return std::filesystem::path(xdg) / "krino" / "datasets";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    return std::filesystem::path(home) / ".cache" / "krino" / "datasets";
  return std::nullopt;
}

std::filesystem::path DatasetCache::file(const std::string& name, std::int64_t version) const {
  return root_ / (name + "@" + std::to_string(version)) / "items.jsonl";
}

void DatasetCache::store(const std::string& name, std::int64_t version, const std::vector<std::string>& examples) const {
  const std::filesystem::path target = file(name, version);
  std::error_code ec;
  std::filesystem::create_directories(target.parent_path(), ec);
  if (ec) throw krino::Error(KRINO_UNAVAILABLE, target.parent_path().string() + ": cannot create the dataset cache: " + ec.message());
  krino::io::AtomicFile out(target);
  for (const std::string& example : examples) {
    out.write(example);
    out.write("\n");
  }
  out.commit();
}

std::optional<std::vector<std::string>> DatasetCache::load(const std::string& name, std::int64_t version) const {
  std::ifstream in(file(name, version), std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<std::string> examples;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) examples.push_back(line);
  if (in.bad()) return std::nullopt;
  return examples;
}

}  // namespace krino::server_datasets
