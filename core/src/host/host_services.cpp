#include "krino/core/host/host_services.hpp"

#include "krino/core/host/call_handle.hpp"
#include "krino/core/host/host_document.hpp"
#include "krino/core/host/host_http.hpp"
#include "krino/core/llm/judge_service.hpp"

#include "krino/core/version.hpp"

#include <cstdlib>
#include <cstring>
#include <string_view>

namespace krino::core {
namespace {

const char* level_name(int32_t level) {
  switch (level) {
    case KRINO_LOG_DEBUG: return "debug";
    case KRINO_LOG_INFO: return "info";
    case KRINO_LOG_WARNING: return "warning";
    default: return "error";
  }
}

const HostServices& self(const krino_host* host) { return *static_cast<const HostServices*>(host->host_data); }

}  // namespace

HostServices::HostServices(const Cancellation& cancellation, std::FILE* log_stream, krino_log_level min_level)
    : cancellation_(cancellation), log_stream_(log_stream), min_level_(min_level) {
  host_.struct_size = sizeof(krino_host);
  host_.host_data = this;
  host_.log = &HostServices::log_entry;
  host_.is_cancelled = &HostServices::is_cancelled_entry;
  host_.judge = &HostServices::judge_entry;
  host_.get_extension = &HostServices::get_extension_entry;

  info_.struct_size = sizeof(krino_host_info);
  info_.abi_major = KRINO_ABI_MAJOR;
  info_.abi_minor = KRINO_ABI_MINOR;
  info_.host_name = "krino";
  info_.host_version = kVersion;
  info_.host = &host_;
  // Opt-in for now: TestCase building Boost.JSON values from the lent parse costs more instructions
  // than parsing the bytes (docs/benchmarks.md, issue 20); it pays once plugins read views of it.
  const char* documents = std::getenv("KRINO_HOST_DOCUMENT");
  lends_documents_ = documents != nullptr && *documents != '\0' && std::strcmp(documents, "0") != 0;
}

uint64_t HostServices::next_document_serial() noexcept {
  static std::atomic<uint64_t> serials{1};
  return serials.fetch_add(1, std::memory_order_relaxed);
}

void HostServices::log(krino_log_level level, const char* source, const char* message, size_t size) const {
  if (level < min_level_ || log_stream_ == nullptr) return;
  std::lock_guard lock(log_mutex_);
  std::fprintf(log_stream_, "krino: %s: %s%s%.*s\n", level_name(level), source != nullptr ? source : "",
               source != nullptr ? ": " : "", static_cast<int>(size), message != nullptr ? message : "");
}

void HostServices::log_entry(const krino_host* host, int32_t level, const char* component_id, const char* message,
                             size_t size) {
  self(host).log(static_cast<krino_log_level>(level), component_id, message, size);
}

int32_t HostServices::is_cancelled_entry(const krino_host* host, const krino_call_context*) {
  return self(host).cancellation_.requested() ? 1 : 0;
}

krino_status HostServices::judge_entry(const krino_host* host, const krino_call_context* ctx, const char* request,
                                       size_t request_size, krino_sink* response, krino_sink* error) {
  auto write = [](krino_sink* sink, std::string_view text) {
    if (sink != nullptr && sink->write != nullptr) sink->write(sink, text.data(), text.size());
  };
  JudgeService* service = self(host).judge_;
  if (service == nullptr) {
    write(error, "no LLM judge is configured in this host (add a 'judges' section to the experiment)");
    return KRINO_UNAVAILABLE;
  }
  if (request == nullptr) {
    write(error, "the judge request is empty");
    return KRINO_INVALID_ARGUMENT;
  }
  const uint64_t seed = ctx != nullptr ? ctx->seed : 0;
  JudgeCallOutcome outcome = service->call(std::string_view(request, request_size), seed, &self(host).cancellation_);
  // The runner points host_handle at the item's CallHandle; the attribution itself is not const.
  if (ctx != nullptr && ctx->host_handle != nullptr) {
    if (CallAttribution* attribution = static_cast<const CallHandle*>(ctx->host_handle)->attribution)
      attribution->add(outcome.record);
  }
  write(outcome.status == KRINO_OK ? response : error, outcome.text);
  return outcome.status;
}

size_t HostServices::judge_capacity() const noexcept { return judge_ != nullptr ? judge_->capacity() : 0; }

const void* HostServices::get_extension_entry(const krino_host* host, const char* extension_id) {
  if (host == nullptr || extension_id == nullptr) return nullptr;
  if (std::strcmp(extension_id, KRINO_HOST_HTTP_EXTENSION_ID) == 0 && self(host).http_ != nullptr)
    return HostHttp::table();
  if (std::strcmp(extension_id, KRINO_HOST_DOCUMENT_EXTENSION_ID) == 0 && self(host).lends_documents_)
    return HostTestCase::table();
  return nullptr;
}

}  // namespace krino::core
