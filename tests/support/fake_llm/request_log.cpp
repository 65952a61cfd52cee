#include "request_log.hpp"

#include <boost/json.hpp>
#include <utility>

namespace krino::fake_llm {

void RequestLog::record(RecordedRequest request) {
  std::lock_guard lock(mutex_);
  ++(request.endpoint == Endpoint::openai_chat ? openai_count_ : anthropic_count_);
  if (keep_last_ == 0) return;
  if (recent_.size() == keep_last_) recent_.pop_front();
  recent_.push_back(std::move(request));
}

std::uint64_t RequestLog::count(Endpoint endpoint) const {
  std::lock_guard lock(mutex_);
  return endpoint == Endpoint::openai_chat ? openai_count_ : anthropic_count_;
}

std::uint64_t RequestLog::total() const {
  std::lock_guard lock(mutex_);
  return openai_count_ + anthropic_count_;
}

std::vector<RecordedRequest> RequestLog::recent() const {
  std::lock_guard lock(mutex_);
  return {recent_.begin(), recent_.end()};
}

void RequestLog::clear() {
  std::lock_guard lock(mutex_);
  openai_count_ = anthropic_count_ = 0;
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
  json::object counts{{std::string(endpoint_path(Endpoint::openai_chat)), openai_count_},
                      {std::string(endpoint_path(Endpoint::anthropic_messages)), anthropic_count_}};
  return json::serialize(json::object{
      {"total", openai_count_ + anthropic_count_}, {"counts", std::move(counts)}, {"requests", std::move(requests)}});
}

}  // namespace krino::fake_llm
