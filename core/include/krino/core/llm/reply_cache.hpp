#pragma once
// The on-disk reply cache (docs/judges.md's judge cache, and the model task's `cache`): a successful
// reply, filed under a hash of everything that could change it. A cache must never fail a run, so
// nothing here throws: an unreadable entry is a miss, a failed write is reported and forgotten.
#include <boost/json/object.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace krino::core {

// What identifies one LLM call. `request` is the effective request (a krino.judgerequest/1 with
// the model's defaults already filled in: temperature, seed, max_tokens, response_format); every
// member but "judge" is part of the key, so a field added to the request later is covered too.
struct LlmCallIdentity {
  std::string provider;  // "openai", "anthropic"
  std::string base_url;
  std::string model;
  boost::json::object request;
};

struct ReplyCacheKey {
  std::string hex;               // SHA-256 of the canonical key material, 64 lowercase hex digits
  boost::json::object summary;   // what the key covers, minus the messages; stored in the entry for people
};

// Canonical form: keys sorted at every depth, integral numbers written as integers (so temperature 0
// and 0.0 are one key), trailing slashes dropped from the base URL, and a format tag so that a
// future change of the material misses instead of colliding.
ReplyCacheKey make_reply_cache_key(const LlmCallIdentity& identity);

struct ReplyCacheEntry {
  std::string content;  // the reply text
  std::string model;    // the model that answered
  std::string tool_calls;   // the tool calls made, as a compact JSON array; empty when none
  std::string stop_reason;  // as the provider said it; may be empty
  std::optional<int64_t> tokens_in;
  std::optional<int64_t> tokens_out;
  std::string created_at;  // RFC 3339, UTC; filled by store()
};

class ReplyCache {
 public:
  explicit ReplyCache(std::filesystem::path directory);

  // $XDG_CACHE_HOME/krino/judge, else $HOME/.cache/krino/judge; nullopt when neither is usable
  // (the caller then runs without a cache). A relative XDG_CACHE_HOME is ignored, as the XDG spec says.
  static std::optional<std::filesystem::path> default_directory();
  static std::optional<std::filesystem::path> default_directory(const char* xdg_cache_home, const char* home);

  const std::filesystem::path& directory() const { return directory_; }

  // Makes the directory ready: creates what is missing of it with mode 0700 (entries hold reply
  // text, which may quote the prompts' data), takes group and other access away from a cache
  // directory of ours that has it, and checks that it can be read and written. Returns why the
  // cache cannot be used, or nullopt.
  std::optional<std::string> prepare() const noexcept;
  std::filesystem::path entry_path(const ReplyCacheKey& key) const;  // <dir>/<2 hex>/<62 hex>.json

  // [thread-safe] The stored reply, or nullopt on a miss, including a missing, unreadable, corrupt
  // or mismatched file.
  std::optional<ReplyCacheEntry> lookup(const ReplyCacheKey& key) const noexcept;

  // [thread-safe] Files a successful reply (only successes are ever passed here), private to the
  // user (a 0700 folder, a 0600 file). Written to a
  // temporary file in the same folder, synced and renamed over the entry (write_file_atomically), so
  // a reader sees the old entry or the new one, never half of one, and concurrent writers of one key
  // leave one whole entry. Returns why it failed, or nullopt.
  std::optional<std::string> store(const ReplyCacheKey& key, const ReplyCacheEntry& entry,
                                   std::chrono::system_clock::time_point now) const noexcept;

 private:
  std::filesystem::path directory_;
};

}  // namespace krino::core
