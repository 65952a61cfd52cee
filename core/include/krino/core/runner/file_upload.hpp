#pragma once
// `krino upload FILE`: sends a file to a results server through the server reporter, so there is one
// client (batches, keys, retries, spool) whichever way items travel. The file is either
//   - a run's json report (krino.event/1 lines): the reporter gets its events as a run would give
//     them, each run becoming a run on the server; or
//   - the reporter's spool (krino.spool/1 lines): each batch is sent again with its own
//     Idempotency-Key, so a batch the server already holds is not stored twice; a run with a
//     local id is created first and its records follow it.
// A json report is the user's file and is only read. A spool replayed to the end is renamed to
// FILE.uploaded (never over an existing file); records the server still refuses are written to a
// new spool beside it first, so no record is ever only in memory.
#include "krino/core/common/environment_lookup.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/plugin/plugin_registry.hpp"

#include <string>

namespace krino::core {

struct UploadRequest {
  std::string path;
  // Empty: the environment's KRINO_SERVER_URL / KRINO_PROJECT / KRINO_API_KEY, then (for a spool)
  // the record's own server and project.
  std::string server, project, experiment, api_key;
  bool allow_loss = false;
  EnvironmentLookup environment = process_environment();
};

struct UploadResult {
  bool spool = false;           // the file was a spool
  std::string renamed_to;       // a spool replayed to the end: its new name
  std::string new_spool;        // records that failed again, when there were any
};

// Throws a usage error for a file that cannot be read or is neither kind, naming the file and line,
// and a runtime error when items did not reach the server (the reporter's message).
UploadResult upload_file(const PluginRegistry& registry, const HostServices& host, const UploadRequest& request);

}  // namespace krino::core
