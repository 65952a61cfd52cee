#pragma once
// What earlier probes found (plugin_probe.hpp), kept in one JSON file so that a command only
// probes libraries that are new or changed: $XDG_CACHE_HOME/krino/plugin-probes.json (or
// ~/.cache/krino/...). An entry holds while the library's path, size, modification time, device and
// inode are the same, and the whole file while `generation` (krino's version and ABI, and the
// probing program's own identity) is. A file that cannot be read or parsed is an empty cache and is
// rewritten; it is replaced atomically, so two commands at once lose at most each other's entries.
#include <filesystem>
#include <optional>
#include <string>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

namespace krino::core {

class PluginProbeCache {
 public:
  struct Entry {
    bool described = false;        // `probe` is a probe document
    boost::json::value probe;
    std::string failure;           // otherwise how the probe ended
  };

  PluginProbeCache(std::filesystem::path file, std::string generation);

  // $XDG_CACHE_HOME/krino/plugin-probes.json, else $HOME/.cache/krino/plugin-probes.json; nullopt
  // when neither variable is an absolute path.
  static std::optional<std::filesystem::path> default_file();
  // The identity of a file as the cache keys it ("size:mtime_ns:device:inode"); nullopt when it cannot be read.
  static std::optional<std::string> file_identity(const std::filesystem::path& file);

  std::optional<Entry> lookup(const std::filesystem::path& library) const;
  void store(const std::filesystem::path& library, const Entry& entry);
  // Drops the entries of libraries that are gone, then writes the file if anything changed.
  // Returns why it could not be written, or nothing.
  std::optional<std::string> save();

  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  std::string generation_;
  boost::json::object entries_;
  bool changed_ = false;
};

}  // namespace krino::core
