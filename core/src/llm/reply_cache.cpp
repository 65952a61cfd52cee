#include "krino/core/llm/reply_cache.hpp"

#include "krino/core/common/atomic_file.hpp"
#include "krino/core/common/content_digest.hpp"
#include "krino/core/common/error.hpp"
#include "krino/core/common/utc_time.hpp"

#include <boost/json/parse.hpp>
#include <krino/json_parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace krino::core {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

// Bump when the key material or the entry layout changes: old entries then simply miss.
constexpr std::string_view kFormat = "krino.judgecache/1";

std::string without_trailing_slashes(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

json::value member_or_null(const json::object& o, std::string_view key) {
  auto it = o.find(key);
  return it == o.end() ? json::value(nullptr) : canonical_json(it->value());
}

std::optional<int64_t> optional_integer(const json::object& o, std::string_view key, bool& ok) {
  auto it = o.find(key);
  if (it == o.end() || it->value().is_null()) return std::nullopt;
  if (it->value().is_int64()) return it->value().get_int64();
  ok = false;
  return std::nullopt;
}

std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(text).str();
}

bool usable_base(const char* value) { return value != nullptr && *value != '\0' && fs::path(value).is_absolute(); }

constexpr mode_t kPrivateDirectory = 0700;
constexpr unsigned kPrivateFile = 0600;

// Creates `directory` and its missing parents with mode 0700 (less the umask). Returns the errno of
// the first failure, 0 when it exists.
int make_private_directories(const fs::path& directory) {
  fs::path partial;
  for (const fs::path& part : directory) {
    partial /= part;
    if (::mkdir(partial.c_str(), kPrivateDirectory) != 0 && errno != EEXIST) return errno;
  }
  struct stat info {};
  if (::stat(directory.c_str(), &info) != 0) return errno;
  return S_ISDIR(info.st_mode) ? 0 : ENOTDIR;
}

}  // namespace

ReplyCacheKey make_reply_cache_key(const LlmCallIdentity& identity) {
  json::object request = identity.request;
  request.erase("judge");  // a name for the same judge; the judge's settings are in the key already
  json::object material;
  material["format"] = kFormat;
  material["provider"] = identity.provider;
  material["baseUrl"] = without_trailing_slashes(identity.base_url);
  material["model"] = identity.model;
  material["request"] = std::move(request);

  ReplyCacheKey key;
  try {
    key.hex = sha256_hex(json::serialize(canonical_json(material)));
  } catch (const KrinoError&) {
    key.hex.clear();  // no SHA-256 in this OpenSSL: a key nobody can hit turns the cache off
  }

  json::object& s = key.summary;
  s["provider"] = identity.provider;
  s["baseUrl"] = material["baseUrl"];
  s["model"] = identity.model;
  const json::object& r = material["request"].get_object();
  for (std::string_view field : {"temperature", "seed", "max_tokens", "response_format"})
    s[field] = member_or_null(r, field);
  auto messages = r.find("messages");
  s["messages"] = messages != r.end() && messages->value().is_array() ? messages->value().get_array().size() : 0;
  return key;
}

ReplyCache::ReplyCache(std::filesystem::path directory) : directory_(std::move(directory)) {}

std::optional<std::string> ReplyCache::prepare() const noexcept {
  try {
    const std::string shown = "'" + directory_.string() + "'";
    if (const int error = make_private_directories(directory_); error != 0)
      return "cannot create " + shown + ": " + std::strerror(error);
    struct stat info {};
    if (::stat(directory_.c_str(), &info) == 0 && info.st_uid == ::geteuid() && (info.st_mode & 077) != 0)
      ::chmod(directory_.c_str(), kPrivateDirectory);  // best effort: a cache made by an older krino
    if (::access(directory_.c_str(), R_OK | W_OK | X_OK) != 0) return "cannot write to " + shown + ": " + std::strerror(errno);
    return std::nullopt;
  } catch (...) {
    return "cannot prepare the cache directory";
  }
}

std::optional<fs::path> ReplyCache::default_directory(const char* xdg_cache_home, const char* home) {
  if (usable_base(xdg_cache_home)) return fs::path(xdg_cache_home) / "krino" / "judge";
  if (usable_base(home)) return fs::path(home) / ".cache" / "krino" / "judge";
  return std::nullopt;
}

std::optional<fs::path> ReplyCache::default_directory() {
  return default_directory(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME"));
}

fs::path ReplyCache::entry_path(const ReplyCacheKey& key) const {
  std::string_view hex = key.hex;
  return directory_ / std::string(hex.substr(0, 2)) / (std::string(hex.substr(std::min<size_t>(2, hex.size()))) + ".json");
}

std::optional<ReplyCacheEntry> ReplyCache::lookup(const ReplyCacheKey& key) const noexcept {
  try {
    if (key.hex.size() < 3) return std::nullopt;
    auto text = read_file(entry_path(key));
    if (!text) return std::nullopt;
    boost::system::error_code ec;
    json::value doc = krino::json::parse(*text, ec);
    if (ec || !doc.is_object()) return std::nullopt;
    const json::object& o = doc.get_object();
    // The key inside the file must match: a file copied or renamed by hand is not this call's reply.
    auto string_member = [&o](std::string_view name) -> const json::string* {
      auto it = o.find(name);
      return it != o.end() && it->value().is_string() ? &it->value().get_string() : nullptr;
    };
    const json::string* format = string_member("format");
    const json::string* stored_key = string_member("key");
    const json::string* content = string_member("content");
    const json::string* model = string_member("model");
    const json::string* created_at = string_member("createdAt");
    if (!format || *format != kFormat || !stored_key || *stored_key != key.hex || !content || !model) {
      return std::nullopt;
    }
    bool ok = true;
    ReplyCacheEntry entry;
    entry.content = std::string(*content);
    entry.model = std::string(*model);
    entry.tokens_in = optional_integer(o, "tokensIn", ok);
    entry.tokens_out = optional_integer(o, "tokensOut", ok);
    if (!ok) return std::nullopt;
    if (auto it = o.find("toolCalls"); it != o.end()) {
      if (!it->value().is_array()) return std::nullopt;
      if (!it->value().get_array().empty()) entry.tool_calls = json::serialize(it->value());
    }
    if (const json::string* stop = string_member("stopReason")) entry.stop_reason = std::string(*stop);
    if (created_at) entry.created_at = std::string(*created_at);
    return entry;
  } catch (...) {
    return std::nullopt;
  }
}

std::optional<std::string> ReplyCache::store(const ReplyCacheKey& key, const ReplyCacheEntry& entry,
                                             std::chrono::system_clock::time_point now) const noexcept {
  try {
    if (key.hex.size() < 3) return "the judge cache key is empty";
    json::object o;
    o["format"] = kFormat;
    o["key"] = key.hex;
    o["keyMaterial"] = key.summary;
    o["content"] = entry.content;
    o["model"] = entry.model;
    o["tokensIn"] = entry.tokens_in ? json::value(*entry.tokens_in) : json::value(nullptr);
    o["tokensOut"] = entry.tokens_out ? json::value(*entry.tokens_out) : json::value(nullptr);
    if (!entry.tool_calls.empty()) o["toolCalls"] = krino::json::parse(entry.tool_calls);
    if (!entry.stop_reason.empty()) o["stopReason"] = entry.stop_reason;
    o["createdAt"] = format_utc_timestamp(now);

    // Synced like every atomic file; a torn entry would read as corrupt anyway, which is a miss.
    const fs::path path = entry_path(key);
    if (const int error = make_private_directories(path.parent_path()); error != 0)
      return "cannot create '" + path.parent_path().string() + "': " + std::strerror(error);
    write_file_atomically(path, json::serialize(o), kPrivateFile);
    return std::nullopt;
  } catch (const std::exception& e) {
    return std::string("cannot store a judge cache entry: ") + e.what();
  } catch (...) {
    return "cannot store a judge cache entry";
  }
}

}  // namespace krino::core
