#pragma once
// The default Store: one SQLite file in the data directory. WAL journal, so readers never wait for
// the writer and a crash loses no committed transaction; synchronous=NORMAL, so a commit costs no
// fsync (the WAL is synced at checkpoints: a power cut may lose the last commits, never corrupt the
// file); foreign keys on, so deleting a run deletes its items.
#include "krino/core/store/sqlite_connection.hpp"
#include "krino/core/store/store.hpp"

#include <filesystem>
#include <mutex>

namespace krino::core::store {

class SqliteStore final : public Store {
 public:
  // Opens or creates `path` and applies every migration it lacks. Throws KrinoError naming the
  // file when it cannot be opened, is not a krino database, or was written by a newer krino.
  explicit SqliteStore(const std::filesystem::path& path);

  std::string backend() const override { return "sqlite"; }
  int schema_version() override;

 private:
  void apply_migrations();

  std::mutex mutex_;  // one connection, one user at a time
  SqliteConnection connection_;
};

}  // namespace krino::core::store
