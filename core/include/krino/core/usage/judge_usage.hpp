#pragma once
// What judge calls cost, counted where they are attributed: per item (the host hands each item's
// calls a JudgeUsage through krino_call_context::host_handle), per evaluator and per run.
#include <krino/event/judge_usage.hpp>

#include <cstdint>
#include <mutex>
#include <optional>
#include <utility>

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

// The one model of judge usage is the event codec's: what an item, a run and an experiment
// report (krino/event/judge_usage.hpp).
using JudgeUsage = krino::event::JudgeUsage;

// Counts one call into `usage`.
void add_call(JudgeUsage& usage, const JudgeCallRecord& call);

// Where an item's judge calls are counted: krino_call_context::host_handle points at the item's
// CallHandle (core/host/call_handle.hpp), which points here. Locked, because nothing stops a plugin
// from calling the judge from threads of its own.
class CallAttribution {
 public:
  void add(const JudgeCallRecord& call) {
    std::lock_guard lock(mutex_);
    add_call(usage_, call);
    add_call(share_, call);
  }
  JudgeUsage usage() const {
    std::lock_guard lock(mutex_);
    return usage_;
  }
  // The calls counted since the share was last taken: one evaluator's share of the item's usage
  // when taken before and after its call. Counted on its own, not as the difference of two totals:
  // a difference cannot tell whether the share's tokens had a price when an earlier call's did not,
  // gives a cost of 0 to a share that had none, and is not its calls' sum bit for bit.
  JudgeUsage take_share() {
    std::lock_guard lock(mutex_);
    return std::exchange(share_, JudgeUsage{});
  }

 private:
  mutable std::mutex mutex_;
  JudgeUsage usage_;
  JudgeUsage share_;
};

}  // namespace krino::core
