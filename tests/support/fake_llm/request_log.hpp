#pragma once
// What the server was asked: per-endpoint counts and the most recent request bodies, so tests can
// assert which prompt and which key a client sent.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include "script.hpp"

namespace krino::fake_llm {

struct RecordedRequest {
  Endpoint endpoint = Endpoint::openai_chat;
  std::string body;     // raw, as received (may be anything the client sent)
  std::string model;    // empty when the body had none or was not JSON
  std::string prompt;   // the concatenated prompt text rules match on
  std::string api_key;  // from Authorization: Bearer (OpenAI) or x-api-key (Anthropic); empty if absent
  unsigned status = 0;  // HTTP status answered; 0 when the fault sent none (timeout, reset, truncated)
  int rule = -1;        // rule index that answered; -1 for the default or a rejected request
};

class RequestLog {
 public:
  explicit RequestLog(std::size_t keep_last) : keep_last_(keep_last) {}

  // [thread-safe]
  void record(RecordedRequest request);
  std::uint64_t count(Endpoint endpoint) const;
  std::uint64_t total() const;
  std::vector<RecordedRequest> recent() const;  // oldest first, at most keep_last
  void clear();
  std::string to_json() const;  // what GET /_requests answers

 private:
  mutable std::mutex mutex_;
  std::size_t keep_last_;
  std::uint64_t counts_[std::size(kEndpoints)] = {};
  std::deque<RecordedRequest> recent_;
};

}  // namespace krino::fake_llm
