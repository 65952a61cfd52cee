// The offline copy of server dataset versions: $XDG_CACHE_HOME/krino/datasets/<name>@<version>/
// items.jsonl (~/.cache when XDG_CACHE_HOME is unset), one krino.example/1 line per item. A version
// never changes on the server, so a cached copy is never stale; it is written whole or not at all
// (an atomic replace), so a reader never sees half of one.
#ifndef KRINO_SERVER_DATASETS_DATASET_CACHE_HPP
#define KRINO_SERVER_DATASETS_DATASET_CACHE_HPP

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace krino::server_datasets {

// The cache's root from the environment, or nullopt when neither XDG_CACHE_HOME nor HOME is set.
std::optional<std::filesystem::path> default_cache_root();

class DatasetCache {
 public:
  explicit DatasetCache(std::filesystem::path root) : root_(std::move(root)) {}

  std::filesystem::path file(const std::string& name, std::int64_t version) const;
  // Writes the version's examples (creating the directories). Throws krino::Error naming the file.
  void store(const std::string& name, std::int64_t version, const std::vector<std::string>& examples) const;
  // The cached examples, or nullopt when that version was never cached.
  std::optional<std::vector<std::string>> load(const std::string& name, std::int64_t version) const;

 private:
  std::filesystem::path root_;
};

}  // namespace krino::server_datasets

#endif  // KRINO_SERVER_DATASETS_DATASET_CACHE_HPP
