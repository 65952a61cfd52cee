#include "request_log.hpp"

#include <boost/json.hpp>
#include <utility>

namespace krino::fake_llm {

void RequestLog::record(RecordedRequest request) {
  std::lock_guard lock(mutex_);
  ++counts_[static_cast<std::size_t>(request.endpoint)];
  if (keep_last_ == 0) return;
  if (recent_.size() == keep_last_) recent_.pop_front();
  recent_.push_back(std::move(request));
}

std::uint64_t RequestLog::count(Endpoint endpoint) const {
  std::lock_guard lock(mutex_);
  return counts_[static_cast<std::size_t>(endpoint)];
}

std::uint64_t RequestLog::total() const {
  std::lock_guard lock(mutex_);
  std::uint64_t total = 0;
  for (std::uint64_t n : counts_) total += n;
  return total;
}

std::vector<RecordedRequest> RequestLog::recent() const {
  std::lock_guard lock(mutex_);
  return {recent_.begin(), recent_.end()};
}

void RequestLog::clear() {
  std::lock_guard lock(mutex_);
  for (std::uint64_t& n : counts_) n = 0;
  recent_.clear();
}

std::string RequestLog::to_json() const {
  namespace json = boost::json;
  std::lock_guard lock(mutex_);
  json::array requests;
  for (const auto& r : recent_) {
    requests.push_back(json::object{{"endpoint", endpoint_name(r.endpoint)},
                                    {"model", r.model},
                                    {"prompt", r.prompt},
                                    {"body", r.body},
                                    {"api_key", r.api_key},
                                    {"status", r.status},
                                    {"rule", r.rule}});
  }
  json::object counts;
  std::uint64_t total = 0;
  for (Endpoint endpoint : kEndpoints) {
    counts[std::string(endpoint_path(endpoint))] = counts_[static_cast<std::size_t>(endpoint)];
    total += counts_[static_cast<std::size_t>(endpoint)];
  }
  return json::serialize(json::object{{"total", total}, {"counts", std::move(counts)}, {"requests", std::move(requests)}});
}

}  // namespace krino::fake_llm
