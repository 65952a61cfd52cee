// The server reporter's options and their JSON Schema. The server, project and key may also come
// from the environment (KRINO_SERVER_URL, KRINO_PROJECT, KRINO_API_KEY), so CI can keep the key in a
// secret and the experiment file free of it; an option written in the file wins.
#ifndef KRINO_SERVER_SERVER_OPTIONS_HPP
#define KRINO_SERVER_SERVER_OPTIONS_HPP

#include <krino/plugin.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace krino::server {

// Reads one environment variable; nullopt when unset. Tests pass their own.
using EnvironmentLookup = std::function<std::optional<std::string>(const char* name)>;
EnvironmentLookup process_environment();

struct ServerOptions {
  std::string url;         // the server's base URL, without a trailing '/'
  std::string project;     // the project's name on the server
  std::string experiment;  // empty: the experiment's own name
  std::string api_key;     // empty: no Authorization header
  int64_t batch_size = 0;  // items per POST
  int64_t batch_ms = 0;    // a batch leaves this long after its first item, full or not
  std::string spool;       // where undelivered batches are appended; empty: nowhere (they are lost)
  bool allow_loss = false;  // items spooled or lost do not fail the command
  int64_t retries = 0;     // tries after the first, per request
  int64_t timeout_ms = 0;  // one request, connecting included
  int64_t finish_timeout_ms = 0;  // how long the end of a run waits for its batches

  // Reads the options (the schema's defaults for those left out) and the environment's fallbacks.
  // Throws krino::Error (INVALID_ARGUMENT) naming what is missing or wrong.
  static ServerOptions from_config(krino::Config config, const EnvironmentLookup& environment = process_environment());
};

// "https://h/x/" -> "https://h/x". Throws krino::Error unless the text is an http(s) URL.
std::string normalized_server_url(std::string url);

inline constexpr const char kServerOptionsSchema[] = R"({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "krino.server options",
  "description": "Sends every item to a krino results server (krino serve) while the run goes (docs/plugins/server.md).",
  "type": "object",
  "properties": {
    "url": {"description": "The server's base URL, e.g. http://127.0.0.1:8080. Default: $KRINO_SERVER_URL.", "type": "string"},
    "project": {"description": "The project the runs belong to (created on first use). Default: $KRINO_PROJECT.", "type": "string"},
    "experiment": {"description": "The experiment's name on the server. Default: the experiment file's name.", "type": "string"},
    "api_key": {"description": "An EDITOR or ADMIN key, sent as a Bearer token. Default: $KRINO_API_KEY.", "type": "string"},
    "batch_size": {"description": "Items per request.", "type": "integer", "minimum": 1, "maximum": 10000, "default": 100},
    "batch_ms": {"description": "A batch is sent this many milliseconds after its first item, even when not full.", "type": "integer", "minimum": 0, "maximum": 600000, "default": 500},
    "spool": {"description": "The file undelivered batches are appended to, one JSON line each, for krino upload. An empty string keeps no spool: such items are lost.", "type": "string", "default": "failed-items.ndjson"},
    "allow_loss": {"description": "Exit as if every item was delivered even when some were spooled or lost.", "type": "boolean", "default": false},
    "retries": {"description": "Tries after the first for a request that failed on a 429, a 5xx, a timeout or a broken connection.", "type": "integer", "minimum": 0, "maximum": 10, "default": 3},
    "timeout_ms": {"description": "The longest one request may take, connecting included.", "type": "integer", "minimum": 1, "maximum": 600000, "default": 30000},
    "finish_timeout_ms": {"description": "How long the end of a run waits for its batches to be sent; what is still queued then goes to the spool.", "type": "integer", "minimum": 0, "maximum": 3600000, "default": 60000}
  },
  "additionalProperties": false
})";

}  // namespace krino::server

#endif  // KRINO_SERVER_SERVER_OPTIONS_HPP
