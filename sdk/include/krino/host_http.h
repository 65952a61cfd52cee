/*
 * Host extension "krino.host.http/1": the host's HTTP/1.1 client, lent to plugins.
 *
 * A plugin that talks to a server (the `server` reporter sends results to `krino serve`) asks the
 * host for this table with host->get_extension(host, KRINO_HOST_HTTP_EXTENSION_ID) instead of
 * carrying an HTTP and TLS stack of its own: the host's client verifies certificates, keeps
 * connections alive per origin and runs on the command's one I/O service. The plugin decides what
 * to send and whether to try again; the host only carries one request and its answer.
 *
 * The host answers NULL when it has no client to lend (a host older than this extension, or a
 * command that made none); a plugin then reports that it cannot work, it does not fall back.
 *
 * Same rules as plugin.h: C99, struct_size first, fields only appended, nothing freed across the
 * boundary, output through host-owned sinks.
 */
#ifndef KRINO_HOST_HTTP_H
#define KRINO_HOST_HTTP_H

#include <krino/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KRINO_HOST_HTTP_EXTENSION_ID "krino.host.http/1"

/* One request header. Neither string need be NUL-terminated. */
typedef struct krino_http_header {
  const char *name;
  size_t name_size;
  const char *value;
  size_t value_size;
} krino_http_header;

typedef struct krino_host_http {
  uint32_t struct_size;

  /* Sends one request and blocks the calling thread until its answer, a timeout or a transport
   * error. `method` is a token such as "GET", "POST", "PATCH"; `url` an absolute http:// or
   * https:// URL (NUL-terminated, no user info). Host, Content-Length, Connection and User-Agent are
   * the host's; `headers` adds the others. `timeout_ms` bounds the whole exchange, connecting
   * included (0: the host's default of 30 s).
   *
   * Returns KRINO_OK when the server answered, whatever the HTTP status: `*out_status` holds it,
   * `response_headers` gets one "Name: value\n" line per header and `response_body` the body.
   * KRINO_DEADLINE_EXCEEDED when no complete answer came in time, KRINO_UNAVAILABLE when the
   * connection could not be made or broke, KRINO_INVALID_ARGUMENT for a URL or method the client
   * cannot use; `error` then says what happened (never quoting the request's headers).
   *
   * [thread-safe], blocking: call it from a thread of the plugin's own or a worker thread, never
   * from inside another host callback. Buffers passed in are read before it returns. */
  krino_status (*request)(const krino_host *host, const char *method, const char *url,
                          const krino_http_header *headers, size_t header_count, const char *body,
                          size_t body_size, uint32_t timeout_ms, int32_t *out_status,
                          krino_sink *response_headers, krino_sink *response_body, krino_sink *error);
} krino_host_http;

#ifdef __cplusplus
}
#endif

#endif /* KRINO_HOST_HTTP_H */
