// The spool: batches the server did not take, kept on disk for `krino upload`. One JSON line per
// record, appended and synced (fsync) before the reporter counts the items as spooled, so a crash
// right after keeps them. A record carries everything a replay needs: where it was going (server,
// project, experiment, the run's metadata), the run (the server's id, or `local-<epochMillis>` when
// the server was down as the run started), and either a batch with its Idempotency-Key or the
// run's final status.
//
//   {"schema":"krino.spool/1","kind":"items","server":"http://h:8080","project":"p",
//    "experiment":"e","metadata":{...},"runId":"local-1718000000000","idempotencyKey":"<uuid>",
//    "items":[ItemData, ...]}
//   {"schema":"krino.spool/1","kind":"status",...,"runId":"...","status":"SUCCESS"}
//
// Threads: one writer at a time (the reporter's worker).
#ifndef KRINO_SERVER_SPOOL_FILE_HPP
#define KRINO_SERVER_SPOOL_FILE_HPP

#include <string>
#include <string_view>

namespace krino::server {

inline constexpr std::string_view kSpoolSchema = "krino.spool/1";

// Where a run's records are going.
struct RunTarget {
  std::string server;
  std::string project;
  std::string experiment;
  std::string metadata_json = "{}";
  std::string run_id;
  // "name@N" when the run read a server dataset (dataset://): the run's datasetVersion, what the
  // gate compares like with like by. Empty: none.
  std::string dataset_version = {};
};

struct SpoolRecord {
  RunTarget target;
  std::string kind;             // "items" or "status"
  std::string idempotency_key;  // items
  std::string items_json;       // items: a JSON array of ItemData
  std::size_t item_count = 0;   // items: the array's length
  std::string status;           // status
};

// The record's line, without the line feed.
std::string spool_line(const SpoolRecord& record);

// Reads one line of a spool. Throws krino::Error (INVALID_ARGUMENT) saying what is wrong.
SpoolRecord read_spool_line(std::string_view line);

// True when the line is a spool record (its "schema" is krino.spool/1), false for anything else.
bool is_spool_line(std::string_view line);

class SpoolFile {
 public:
  // Nothing is opened until the first record: a run that delivers everything leaves no file.
  explicit SpoolFile(std::string path) : path_(std::move(path)) {}
  ~SpoolFile();
  SpoolFile(const SpoolFile&) = delete;
  SpoolFile& operator=(const SpoolFile&) = delete;

  // Appends the line and syncs the file. Throws krino::Error naming the file when it cannot.
  void append(const SpoolRecord& record);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace krino::server

#endif  // KRINO_SERVER_SPOOL_FILE_HPP
