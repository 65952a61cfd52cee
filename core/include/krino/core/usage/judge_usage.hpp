#pragma once
// What judge calls cost, counted where they are attributed: per item (the host hands each item's
// calls a JudgeUsage through krino_call_context::host_handle), per evaluator and per run.
#include <boost/json/object.hpp>

#include <cstdint>
#include <mutex>
#include <optional>

namespace krino::core {

struct JudgeCallRecord {
  bool ok = false;
  bool cached = false;
  int attempts = 0;  // HTTP attempts; 0 for a cache hit
  int retries = 0;   // attempts made again after a failure (not the repair round)
  bool repaired = false;
  std::optional<int64_t> tokens_in;
  std::optional<int64_t> tokens_out;
  std::optional<double> cost_usd;
};

struct JudgeUsage {
  uint64_t calls = 0;
  uint64_t cached_calls = 0;
  uint64_t failed_calls = 0;
  uint64_t retries = 0;   // attempts made again after a failed attempt
  uint64_t repairs = 0;   // calls whose JSON reply needed the repair round
  std::optional<int64_t> tokens_in;
  std::optional<int64_t> tokens_out;
  std::optional<double> cost_usd;  // null while no call had a known price
  // Whether a call had token counts without a known price: the item then counts as tokenized but
  // not priced in the "N/M items priced" signal (spec §9).
  bool unpriced_tokens = false;

  void add(const JudgeCallRecord& call);
  void merge(const JudgeUsage& other);
  JudgeUsage minus(const JudgeUsage& earlier) const;  // what happened since `earlier`
  bool empty() const { return calls == 0; }
  bool tokenized() const { return tokens_in.has_value() || tokens_out.has_value(); }
  bool priced() const { return tokenized() && !unpriced_tokens && cost_usd.has_value(); }
  boost::json::object to_json() const;
  // to_json() plus what an exact roll-up needs of an item (`krino merge` rebuilds run totals from
  // item lines): the unrounded cost, `costUsdExact`, and `unpricedTokens`.
  boost::json::object to_item_json() const;
};

// What krino_call_context::host_handle points at during an item: judge calls made with that context
// are added here. Locked, because nothing stops a plugin from calling the judge from threads of its
// own.
class CallAttribution {
 public:
  void add(const JudgeCallRecord& call) {
    std::lock_guard lock(mutex_);
    usage_.add(call);
  }
  JudgeUsage usage() const {
    std::lock_guard lock(mutex_);
    return usage_;
  }

 private:
  mutable std::mutex mutex_;
  JudgeUsage usage_;
};

}  // namespace krino::core
