#pragma once
// What every connection of one server shares. Owned through a shared_ptr so connections still
// finishing while the server stops never outlive it.
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "request_log.hpp"
#include "rule_book.hpp"

namespace krino::fake_llm {

struct ServerState {
  ServerState(Script script, std::uint32_t latency, std::optional<std::string> key, std::size_t keep_last)
      : latency_ms(latency), required_key(std::move(key)), rules(std::move(script)), log(keep_last) {}

  const std::uint32_t latency_ms;               // added to every LLM reply
  const std::optional<std::string> required_key;  // when set, LLM requests must carry exactly this key
  RuleBook rules;
  RequestLog log;
  std::atomic<std::uint64_t> sequence{0};  // numbers response ids
};

}  // namespace krino::fake_llm
