// The server reporter's worker: one thread that takes the run's items from a bounded queue, sends
// them in batches (batch_size items, or batch_ms after a batch's first item) and keeps what the
// server would not take in the spool. The run hands items over and goes on; it waits only when the
// queue is full (the server is slower than the run: memory stays bounded and nothing is dropped)
// and at the end of a run, for at most finish_timeout (then what is left goes to the spool).
//
// A run whose creation failed (the server is down as it starts) gets the id `local-<epochMillis>`
// and all its batches go to the spool, to be replayed by `krino upload`. A run with any batch in the
// spool has its final status spooled too, after those batches, so a replay completes it only once
// its items are in. Once a batch finds no server after all its retries, the rest of the run goes
// straight to the spool: a dead server must not slow the run by the retries of every batch.
//
// The same worker replays spool records for `krino upload`: each batch keeps its Idempotency-Key,
// a local run is created once and its records follow it to the new id.
//
// Threads: the producer calls (start_run, add_item, finish_run, replay) come from one thread at a
// time (the reporter is [serial]); the worker is the sender's own.
#ifndef KRINO_SERVER_BATCH_SENDER_HPP
#define KRINO_SERVER_BATCH_SENDER_HPP

#include <krino/support/server_client.hpp>
#include "spool_file.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace krino::server {

struct SenderSettings {
  std::size_t batch_size = 100;
  std::chrono::milliseconds batch_wait{500};
  std::chrono::milliseconds finish_timeout{60'000};
  // Items the queue holds before add_item waits; 0: twice the batch size (at least 64).
  std::size_t queue_capacity = 0;
};

struct DeliveryCounts {
  uint64_t delivered = 0;
  uint64_t spooled = 0;
  uint64_t lost = 0;  // neither delivered nor spooled (no spool, or the spool could not be written)

  DeliveryCounts& operator+=(const DeliveryCounts& other) {
    delivered += other.delivered;
    spooled += other.spooled;
    lost += other.lost;
    return *this;
  }
};

// What became of one run's items.
struct RunSummary {
  std::string run_id;
  bool local = false;  // the server never knew the run
  DeliveryCounts items;
  bool status_sent = false;  // the final status reached the server (else it is in the spool, or lost)
};

class BatchSender {
 public:
  using Log = std::function<void(const std::string&)>;

  // `spool` may be null (no spool: what is not delivered is lost). Both must outlive the sender.
  BatchSender(SenderSettings settings, ServerClient& client, SpoolFile* spool, Log log);
  // Sends what is queued (within finish_timeout) and joins the worker.
  ~BatchSender();
  BatchSender(const BatchSender&) = delete;
  BatchSender& operator=(const BatchSender&) = delete;

  // A new run on the server (target.run_id is ignored). Returns at once.
  void start_run(RunTarget target);
  // One ItemData object of the current run. Waits while the queue is full.
  void add_item(std::string item_json);
  // Ends the current run: waits (bounded) for its batches, then sets its status. SUCCESS, FAILED
  // or CANCELLED.
  RunSummary finish_run(const std::string& status);
  // A spool record to send again (krino upload). Returns at once; wait with drain().
  void replay(SpoolRecord record);
  // Waits until everything queued so far has been handled; the counts of the replayed records.
  DeliveryCounts drain();

 private:
  struct Job {
    enum class Kind { start_run, item, finish_run, replay } kind = Kind::item;
    RunTarget target;
    std::string text;  // an item, or a status
    SpoolRecord record;
  };
  struct CurrentRun {
    RunTarget target;
    bool open = false;
    bool local = false;
    bool undelivered = false;  // some batch went to the spool or was lost
    bool offline = false;      // a batch found no server after its retries: the rest is spooled
    RunSummary summary;
  };

  void push(Job job, std::size_t items);
  void work();
  void handle(Job& job);
  void open_run(const RunTarget& target);
  void send_batch();
  void close_run(const std::string& status);
  void handle_replay(SpoolRecord& record);
  // Spools one record; returns whether it is on disk. Counts nothing.
  bool spool(const SpoolRecord& record);
  bool out_of_time() const;

  SenderSettings settings_;
  ServerClient& client_;
  SpoolFile* spool_;
  Log log_;

  std::mutex mutex_;
  std::condition_variable has_work_;
  std::condition_variable has_room_;
  std::condition_variable idle_;
  std::deque<Job> queue_;
  std::size_t queued_items_ = 0;
  std::size_t capacity_ = 0;
  bool stopping_ = false;
  uint64_t pushed_ = 0;
  uint64_t handled_ = 0;
  RunSummary last_summary_;

  // The worker's own state.
  CurrentRun run_;
  std::vector<std::string> batch_;
  std::chrono::steady_clock::time_point batch_due_{};
  std::map<std::string, std::string> replayed_runs_;  // local id -> the server's id
  std::set<std::string> replay_failed_runs_;          // runs with a record that went back to the spool
  DeliveryCounts replay_counts_;
  std::atomic<int64_t> deadline_ns_{0};  // steady clock; 0: none

  std::thread worker_;
};

}  // namespace krino::server

#endif  // KRINO_SERVER_BATCH_SENDER_HPP
