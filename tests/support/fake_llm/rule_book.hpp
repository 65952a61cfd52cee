#pragma once
// Picks the reply for a request: the first matching rule that still has uses left. Thread-safe,
// because `times` counts are shared by every connection.
#include <cstdint>
#include <mutex>
#include <vector>

#include "llm_protocol.hpp"
#include "script.hpp"

namespace krino::fake_llm {

struct Choice {
  Reply reply;
  int rule = -1;  // index of the rule that answered; -1 for the default reply
};

class RuleBook {
 public:
  explicit RuleBook(Script script = {});

  // [thread-safe] Consumes one use of the chosen rule.
  Choice choose(const LlmRequest& request);
  // [thread-safe] Installs a new script with fresh use counts.
  void replace(Script script);
  // [thread-safe] Forgets how often each rule was used, so `times` rules answer again.
  void reset_uses();

 private:
  std::mutex mutex_;
  Script script_;
  std::vector<std::uint64_t> uses_;
};

}  // namespace krino::fake_llm
