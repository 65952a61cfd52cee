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

std::string ServerMetrics::text() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  std::string out;
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
