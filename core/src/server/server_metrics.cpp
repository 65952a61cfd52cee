#include "krino/core/server/server_metrics.hpp"

#include <krino/json_text.hpp>

namespace krino::core::server {

namespace {

// Prometheus reads Go's float syntax; the shortest round-trip form of krino::json is that.
void append_number(std::string& out, double value) { krino::json::append_double(out, value); }

}  // namespace

void ServerMetrics::record(const http_server::AccessRecord& record) {
  const double seconds = static_cast<double>(record.duration.count()) / 1e6;
  const std::lock_guard<std::mutex> lock(mutex_);
  ++requests_[{record.method, record.status}];
  for (std::size_t i = 0; i < kBuckets.size(); ++i) {
    if (seconds <= kBuckets[i]) {
      ++bucket_counts_[i];
      break;
    }
  }
  ++count_;
  seconds_sum_ += seconds;
}

namespace {

void append_metric(std::string& out, std::string_view name, std::string_view type, std::string_view help, std::uint64_t value) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n# TYPE ").append(name).append(" ").append(type).append("\n");
  out.append(name).append(" ").append(std::to_string(value)).append("\n");
}

}  // namespace

std::string ServerMetrics::text(std::size_t pending_handlers) const {
  std::string out;
  append_metric(out, "krino_ingest_items_total", "counter", "Items stored by POST /api/v1/runs/{id}/items.", ingest.items_stored.load());
  append_metric(out, "krino_ingest_batches_total", "counter", "Batches stored.", ingest.batches_stored.load());
  append_metric(out, "krino_ingest_batches_repeated_total", "counter", "Batches sent again with a known Idempotency-Key (stored once).",
                ingest.batches_repeated.load());
  append_metric(out, "krino_ingest_batches_refused_total", "counter", "Batches answered with a 4xx.", ingest.batches_refused.load());
  append_metric(out, "krino_runs_started_total", "counter", "Runs created.", ingest.runs_started.load());
  append_metric(out, "krino_runs_ended_total", "counter", "Runs moved to a terminal status.", ingest.runs_ended.load());
  append_metric(out, "krino_http_handlers_pending", "gauge", "Requests whose handler is running or waiting for a handler thread.",
                pending_handlers);
  const std::lock_guard<std::mutex> lock(mutex_);
  out += "# HELP krino_http_requests_total HTTP requests answered, by method and status code.\n";
  out += "# TYPE krino_http_requests_total counter\n";
  for (const auto& [key, count] : requests_) {
    // Methods come from the HTTP parser (tokens of letters), so they need no escaping.
    out += "krino_http_requests_total{method=\"" + key.first + "\",code=\"" + std::to_string(key.second) + "\"} " +
           std::to_string(count) + "\n";
  }
  out += "# HELP krino_http_request_duration_seconds Time from a request's first byte to its response written.\n";
  out += "# TYPE krino_http_request_duration_seconds histogram\n";
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < kBuckets.size(); ++i) {
    cumulative += bucket_counts_[i];
    out += "krino_http_request_duration_seconds_bucket{le=\"";
    append_number(out, kBuckets[i]);
    out += "\"} " + std::to_string(cumulative) + "\n";
  }
  out += "krino_http_request_duration_seconds_bucket{le=\"+Inf\"} " + std::to_string(count_) + "\n";
  out += "krino_http_request_duration_seconds_sum ";
  append_number(out, seconds_sum_);
  out += "\nkrino_http_request_duration_seconds_count " + std::to_string(count_) + "\n";
  return out;
}

}  // namespace krino::core::server
