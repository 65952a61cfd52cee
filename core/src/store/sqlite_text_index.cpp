// An ended run's text search index in a SQLite store: an FTS5 table with the trigram tokenizer,
// keyed by the item's position (rowid = seq), in a database file of its own,
// <data dir>/text-index/<run id>.db. Contentless (the documents stay only in `items`), no column
// sizes, and detail=none (rowids only, no positions): a third the size of a detail=full index at a
// million items, and a search asks for the AND of its words' trigrams, which the LIKE predicate
// then confirms (sqlite_ui_reads.cpp, which ATTACHes the file for that one query).
//
// Why a file of its own: built in the main file, the index's writes held the main file's write
// lock for most of the build (a chunk after another, hundreds of MB through its write-ahead log).
// The server's own writers (the job and alert workers' claims every second, ingestion, the
// distributions kept at a run's first read) then waited for it inside the store's lock, and every
// page read waited behind them: seconds per page at a million items (benchmarks.md). In its own
// file the build takes no lock the requests ask for; it writes to the main file twice (the run's
// state) and reads the items a chunk at a time in short read transactions.
#include "krino/core/store/sqlite_store.hpp"
#include "text_index_sql.hpp"

#include "krino/core/common/error.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace krino::core::store {

namespace {

constexpr std::string_view kIndexFileSuffix = ".db";
constexpr std::string_view kBuildingSuffix = ".building";  // a build under way, or cut off

// An exclusive lock (flock) on `file` without waiting, on the descriptor returned; -1 when another
// process (or another store in this one) holds it, or the file cannot be opened. The lock lives as
// long as the descriptor. flock is apart from the POSIX locks SQLite takes on the same files.
int lock_file(const std::filesystem::path& file, int flags) {
  const int fd = ::open(file.c_str(), flags | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// The file a build writes, locked for as long as the build runs, so that a store opened on the same
// files meanwhile (krino mcp beside krino serve, a second server) does not take it for the leftover
// of a crash; removed unless it was renamed into place (a stop, a deleted run, an error: nothing half
// built is left).
class UnfinishedIndexFile {
 public:
  explicit UnfinishedIndexFile(std::filesystem::path path) : path_(std::move(path)) {
    fd_ = lock_file(path_, O_RDWR | O_CREAT);
    struct stat opened {};
    struct stat named {};
    // Locked, and still the file of that name (not one a start-up removed while this one opened it).
    if (fd_ >= 0 && ::fstat(fd_, &opened) == 0 && ::stat(path_.c_str(), &named) == 0 && opened.st_ino == named.st_ino &&
        opened.st_dev == named.st_dev) {
      if (::ftruncate(fd_, 0) != 0)  // what a build cut off by a crash left
        throw runtime_error(path_.string() + ": cannot empty the unfinished text index: " + std::strerror(errno));
      return;
    }
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    path_.clear();  // another build has it: nothing here to remove
  }
  ~UnfinishedIndexFile() {
    if (!path_.empty()) {
      std::error_code ignored;
      std::filesystem::remove(path_, ignored);
    }
    if (fd_ >= 0) ::close(fd_);  // after the rename or the removal: the lock covers both
  }
  UnfinishedIndexFile(const UnfinishedIndexFile&) = delete;
  UnfinishedIndexFile& operator=(const UnfinishedIndexFile&) = delete;
  // False when another build (in this process or another) is writing this run's index.
  bool ours() const { return fd_ >= 0; }
  const std::filesystem::path& path() const { return path_; }
  void kept() { path_.clear(); }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

struct IndexedDocument {
  std::int64_t seq;
  std::string document;
};

}  // namespace

std::filesystem::path SqliteStore::text_index_file(const std::string& run_id) const {
  text_index::table_name(run_id);  // refuses what is not a UUID: the id becomes a file name
  std::filesystem::path file = text_index_dir_ / run_id;
  file += kIndexFileSuffix;
  return file;
}

std::vector<std::string> SqliteStore::runs_awaiting_text_index(std::size_t limit) {
  const std::lock_guard<std::mutex> lock(mutex_);
  SqliteStatement query = connection_.prepare(
      "SELECT id FROM runs WHERE text_index <> 'ready' AND status <> 'RUNNING' ORDER BY completed_at, id LIMIT ?1");
  query.bind(1, static_cast<std::int64_t>(limit));
  std::vector<std::string> out;
  while (query.step()) out.emplace_back(query.text(0));
  return out;
}

bool SqliteStore::build_text_index(const std::string& run_id, std::int64_t chunk, const std::function<bool()>& keep_going) {
  const std::filesystem::path target = text_index_file(run_id);
  std::filesystem::create_directories(text_index_dir_);
  std::filesystem::path building_path = target;
  building_path += kBuildingSuffix;
  UnfinishedIndexFile building(building_path);
  if (!building.ours()) return false;  // being built elsewhere: that build finishes it
  // Connections of the builder's own, without the store's lock. On the main file it only reads
  // (short read transactions, which wait for no one in WAL mode) and writes the run's state twice.
  SqliteConnection source(connection_.path());
  sqlite3_busy_timeout(source.handle(), 30000);
  std::int64_t count = 0;
  {
    SqliteStatement run = source.prepare("SELECT item_count FROM runs WHERE id = ?1 AND status <> 'RUNNING'");
    run.bind(1, run_id);
    if (!run.step()) return false;
    count = run.integer(0);
  }
  {
    SqliteStatement mark = source.prepare("UPDATE runs SET text_index = 'building' WHERE id = ?1 AND text_index <> 'ready'");
    mark.bind(1, run_id);
    mark.step();
  }

  {
    SqliteConnection index(building.path().string());
    // Nobody reads this file before it is renamed into place, and a build cut off is started
    // again from nothing: no journal on disk, no sync. (MEMORY rather than OFF: a chunk stopped
    // by keep_going is still rolled back properly.)
    index.execute("PRAGMA journal_mode=MEMORY; PRAGMA synchronous=OFF");
    index.execute("CREATE VIRTUAL TABLE item_text USING fts5(document, content='', columnsize=0, detail=none, tokenize='trigram')");
    SqliteStatement insert = index.prepare("INSERT INTO item_text (rowid, document) VALUES (?1, ?2)");
    std::vector<IndexedDocument> documents;
    for (std::int64_t first = 0; first < count; first += chunk) {
      documents.clear();
      {
        // One short read transaction per chunk: the run may have been deleted since the last one.
        SqliteStatement exists = source.prepare("SELECT 1 FROM runs WHERE id = ?1");
        exists.bind(1, run_id);
        if (!exists.step()) return false;
        SqliteStatement read = source.prepare("SELECT seq, document FROM items WHERE run_id = ?1 AND seq >= ?2 AND seq < ?3");
        read.bind(1, run_id).bind(2, first).bind(3, first + chunk);
        while (read.step()) documents.push_back(IndexedDocument{read.integer(0), std::string(read.text(1))});
      }
      SqliteTransaction transaction(index);
      for (const IndexedDocument& document : documents) {
        insert.bind(1, document.seq).bind(2, document.document);
        insert.step();
        insert.reset();
      }
      if (!keep_going()) return false;  // the chunk rolled back, the file removed
      transaction.commit();
    }
  }  // closed before it is renamed
  std::filesystem::rename(building.path(), target);
  building.kept();
  SqliteStatement ready = source.prepare("UPDATE runs SET text_index = 'ready' WHERE id = ?1");
  ready.bind(1, run_id);
  ready.step();
  if (sqlite3_changes(source.handle()) > 0) return true;
  // Deleted meanwhile, after its delete looked for this file.
  std::error_code ignored;
  std::filesystem::remove(target, ignored);
  return false;
}

std::vector<std::filesystem::path> SqliteStore::text_index_files(const std::string& runs_sql, const std::string& key) {
  std::vector<std::filesystem::path> files;
  SqliteStatement runs = connection_.prepare("SELECT id FROM runs WHERE id IN (" + runs_sql + ")");
  runs.bind(1, key);
  while (runs.step()) files.push_back(text_index_file(std::string(runs.text(0))));
  return files;
}

void SqliteStore::remove_text_index_files(const std::vector<std::filesystem::path>& files) {
  for (const std::filesystem::path& file : files) {
    std::error_code ignored;  // a run never indexed has none
    std::filesystem::remove(file, ignored);
  }
}

void SqliteStore::reconcile_text_indexes() {
  std::vector<std::string> legacy_tables;
  {
    SqliteStatement tables = connection_.prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name GLOB 'item_text_*' AND sql LIKE 'CREATE VIRTUAL TABLE%'");
    while (tables.step()) legacy_tables.emplace_back(tables.text(0));
  }
  std::vector<std::string> ready;
  {
    SqliteStatement runs = connection_.prepare("SELECT id FROM runs WHERE text_index = 'ready'");
    while (runs.step()) ready.emplace_back(runs.text(0));
  }
  std::vector<std::string> missing;
  for (const std::string& run_id : ready)
    if (!std::filesystem::exists(text_index_file(run_id))) missing.push_back(run_id);
  if (!legacy_tables.empty() || !missing.empty()) {
    SqliteTransaction transaction(connection_);
    for (const std::string& table : legacy_tables) connection_.execute("DROP TABLE IF EXISTS " + table);
    SqliteStatement none = connection_.prepare("UPDATE runs SET text_index = 'none' WHERE id = ?1");
    for (const std::string& run_id : missing) {
      none.bind(1, run_id);
      none.step();
      none.reset();
    }
    transaction.commit();
  }

  std::error_code error;
  std::filesystem::directory_iterator files(text_index_dir_, error);
  if (error) return;  // no index built yet
  SqliteStatement exists = connection_.prepare("SELECT 1 FROM runs WHERE id = ?1");
  std::vector<std::filesystem::path> stale;
  for (const std::filesystem::directory_entry& entry : files) {
    const std::filesystem::path& file = entry.path();
    if (file.extension() == kIndexFileSuffix) {
      exists.bind(1, file.stem().string());
      const bool of_a_run = exists.step();
      exists.reset();
      if (of_a_run) continue;
    }
    if (file.extension() == kBuildingSuffix) {
      // Unfinished: cut off by a crash, or under way in another process (which holds its lock).
      const int fd = lock_file(file, O_RDONLY);
      if (fd < 0) continue;
      std::error_code ignored;
      std::filesystem::remove(file, ignored);
      ::close(fd);
      continue;
    }
    stale.push_back(file);  // the index of a run deleted before its file was removed
  }
  remove_text_index_files(stale);
}

}  // namespace krino::core::store
