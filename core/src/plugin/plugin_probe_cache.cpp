#include "krino/core/plugin/plugin_probe_cache.hpp"

#include "krino/core/common/atomic_file.hpp"

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

#include <boost/json.hpp>

#include <sys/stat.h>

#include <fstream>
#include <sstream>

namespace krino::core {
namespace {

namespace json = boost::json;
constexpr std::string_view kProbeCacheFormat = "krino.pluginprobes/1";

std::string cache_key(const std::filesystem::path& library) {
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(library, ec);
  return (ec ? library : absolute).lexically_normal().string();
}

bool usable_cache_base(const char* value) { return value != nullptr && value[0] == '/'; }

}  // namespace

PluginProbeCache::PluginProbeCache(std::filesystem::path file, std::string generation)
    : file_(std::move(file)), generation_(std::move(generation)) {
  std::ifstream in(file_, std::ios::binary);
  if (!in) return;
  std::ostringstream text;
  text << in.rdbuf();
  json::error_code ec;
  json::value parsed = krino::json::parse(text.str(), ec);
  // Anything unexpected (a torn write from an older krino, another format, another krino) is an
  // empty cache: every library is probed again and the file rewritten.
  changed_ = true;
  if (ec || !parsed.is_object()) return;
  const json::object& root = parsed.get_object();
  const json::value* format = root.if_contains("format");
  const json::value* made_by = root.if_contains("generation");
  const json::value* entries = root.if_contains("entries");
  auto is_text = [](const json::value* value, std::string_view expected) {
    return value != nullptr && value->is_string() && value->get_string() == expected;
  };
  if (!is_text(format, kProbeCacheFormat) || !is_text(made_by, generation_) || entries == nullptr || !entries->is_object())
    return;
  entries_ = entries->get_object();
  changed_ = false;
}

std::optional<std::filesystem::path> PluginProbeCache::default_file() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); usable_cache_base(xdg))
    return std::filesystem::path(xdg) / "krino" / "plugin-probes.json";
  if (const char* home = std::getenv("HOME"); usable_cache_base(home))
    return std::filesystem::path(home) / ".cache" / "krino" / "plugin-probes.json";
  return std::nullopt;
}

std::optional<std::string> PluginProbeCache::file_identity(const std::filesystem::path& file) {
  struct stat info {};
  if (::stat(file.c_str(), &info) != 0) return std::nullopt;
  std::string identity = std::to_string(info.st_size);
  identity.push_back(':');
  identity.append(std::to_string(static_cast<long long>(info.st_mtim.tv_sec) * 1000000000LL + info.st_mtim.tv_nsec));
  identity.push_back(':');
  identity.append(std::to_string(info.st_dev));
  identity.push_back(':');
  identity.append(std::to_string(info.st_ino));
  return identity;
}

std::optional<PluginProbeCache::Entry> PluginProbeCache::lookup(const std::filesystem::path& library) const {
  const json::value* found = entries_.if_contains(cache_key(library));
  const std::optional<std::string> identity = file_identity(library);
  if (found == nullptr || !found->is_object() || !identity) return std::nullopt;
  const json::object& entry = found->get_object();
  const json::value* file = entry.if_contains("file");
  if (file == nullptr || !file->is_string() || file->get_string() != *identity) return std::nullopt;
  Entry out;
  if (const json::value* probe = entry.if_contains("probe"); probe != nullptr && probe->is_object()) {
    out.described = true;
    out.probe = *probe;
    return out;
  }
  if (const json::value* failure = entry.if_contains("failure"); failure != nullptr && failure->is_string()) {
    out.failure = std::string(failure->get_string());
    return out;
  }
  return std::nullopt;
}

void PluginProbeCache::store(const std::filesystem::path& library, const Entry& entry) {
  const std::optional<std::string> identity = file_identity(library);
  if (!identity) return;
  json::object stored;
  stored["file"] = *identity;
  if (entry.described) {
    if (!entry.probe.is_object()) return;
    stored["probe"] = entry.probe;
  } else {
    stored["failure"] = entry.failure;
  }
  entries_[cache_key(library)] = std::move(stored);
  changed_ = true;
}

std::optional<std::string> PluginProbeCache::save() {
  for (auto it = entries_.begin(); it != entries_.end();) {
    std::error_code ec;
    if (std::filesystem::exists(std::string(it->key()), ec) || ec) {
      ++it;
    } else {
      it = entries_.erase(it);
      changed_ = true;
    }
  }
  if (!changed_) return std::nullopt;
  json::object root;
  root["format"] = kProbeCacheFormat;
  root["generation"] = generation_;
  root["entries"] = entries_;
  try {
    write_file_atomically(file_, krino::json::to_compact_json(root) + "\n");
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
  changed_ = false;
  return std::nullopt;
}

}  // namespace krino::core
