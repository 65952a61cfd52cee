#pragma once
// The services the host offers every plugin (the krino_host vtable of plugin.h): logging,
// cancellation, the judge, and the extensions it lends by id (krino.host.http/1,
// krino.host.document/1). One instance per process context; every function is thread-safe.
#include "krino/core/common/cancellation.hpp"

#include <krino/plugin.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <mutex>

namespace krino::core {

class HostServices {
 public:
  explicit HostServices(const Cancellation& cancellation, std::FILE* log_stream = stderr,
                        krino_log_level min_level = KRINO_LOG_WARNING);
  HostServices(const HostServices&) = delete;
  HostServices& operator=(const HostServices&) = delete;

  const krino_host* host() const noexcept { return &host_; }
  const krino_host_info* host_info() const noexcept { return &info_; }
  void set_min_log_level(krino_log_level level) noexcept { min_level_ = level; }

  // The judge service host->judge() uses; without one, judge calls answer UNAVAILABLE. Set before
  // any plugin call; the service must outlive every call.
  void set_judge_service(class JudgeService* service) noexcept { judge_ = service; }
  class JudgeService* judge_service() const noexcept { return judge_; }
  // The HTTP client lent as "krino.host.http/1"; without one the extension is absent. Set before any
  // plugin call; it must outlive every plugin instance.
  void set_http(class HostHttp* http) noexcept { http_ = http; }
  class HostHttp* http() const noexcept { return http_; }
  // Whether the host lends each item's parsed test case as "krino.host.document/1": when the
  // environment sets KRINO_HOST_DOCUMENT to something other than 0 (opt-in until it pays).
  bool lends_documents() const noexcept { return lends_documents_; }
  // How many judge calls may be in flight at once (every judge's max_concurrency); 0 without judges.
  size_t judge_capacity() const noexcept;

  // The run's cancellation, for the host's own waits (a task's retries, a judge call's back-off).
  const Cancellation& cancellation() const noexcept { return cancellation_; }

  // The host's own diagnostics go through the same channel as plugins' logs.
  void log(krino_log_level level, const char* source, const char* message, size_t size) const;

  // A new krino_call_context::document_serial, unique for the life of the process. Plugins cache
  // their parse of a document under it, and a plugin library (with its per-thread caches) can
  // outlive any one host object: glibc keeps a library with thread_local destructors loaded after
  // dlclose. So the counter is the process's, not the host's.
  static uint64_t next_document_serial() noexcept;

 private:
  static void log_entry(const krino_host* host, int32_t level, const char* component_id, const char* message,
                        size_t size);
  static int32_t is_cancelled_entry(const krino_host* host, const krino_call_context* ctx);
  static krino_status judge_entry(const krino_host* host, const krino_call_context* ctx, const char* request,
                                  size_t request_size, krino_sink* response, krino_sink* error);
  static const void* get_extension_entry(const krino_host* host, const char* extension_id);

  const Cancellation& cancellation_;
  std::FILE* log_stream_;
  krino_log_level min_level_;
  mutable std::mutex log_mutex_;
  krino_host host_{};
  krino_host_info info_{};
  class JudgeService* judge_ = nullptr;
  class HostHttp* http_ = nullptr;
  bool lends_documents_ = false;
};

}  // namespace krino::core
