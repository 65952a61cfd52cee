#include "batch_sender.hpp"

#include <algorithm>

namespace krino::server {
namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string local_run_id() {
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  return "local-" + std::to_string(millis);
}

bool is_local_id(const std::string& run_id) { return run_id.rfind("local-", 0) == 0; }

std::string joined_array(const std::vector<std::string>& items) {
  std::size_t size = 2;
  for (const auto& item : items) size += item.size() + 1;
  std::string out;
  out.reserve(size);
  out += '[';
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ',';
    out += items[i];
  }
  out += ']';
  return out;
}

}  // namespace

BatchSender::BatchSender(SenderSettings settings, ServerClient& client, SpoolFile* spool, Log log)
    : settings_(settings), client_(client), spool_(spool), log_(std::move(log)) {
  if (settings_.batch_size == 0) settings_.batch_size = 1;
  capacity_ = settings_.queue_capacity != 0 ? settings_.queue_capacity : std::max<std::size_t>(64, 2 * settings_.batch_size);
  client_.set_abandon([this] { return out_of_time(); });
  worker_ = std::thread([this] { work(); });
}

BatchSender::~BatchSender() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    if (deadline_ns_.load() == 0)
      deadline_ns_.store(now_ns() + std::chrono::duration_cast<std::chrono::nanoseconds>(settings_.finish_timeout).count());
  }
  has_work_.notify_all();
  worker_.join();
}

bool BatchSender::out_of_time() const {
  const int64_t deadline = deadline_ns_.load();
  return deadline != 0 && now_ns() >= deadline;
}

void BatchSender::push(Job job, std::size_t items) {
  std::unique_lock lock(mutex_);
  // A job larger than the whole queue still goes in once the queue is empty.
  has_room_.wait(lock, [&] { return queued_items_ == 0 || queued_items_ + items <= capacity_; });
  queue_.push_back(std::move(job));
  queued_items_ += items;
  ++pushed_;
  lock.unlock();
  has_work_.notify_one();
}

void BatchSender::start_run(RunTarget target) {
  deadline_ns_.store(0);
  Job job;
  job.kind = Job::Kind::start_run;
  job.target = std::move(target);
  push(std::move(job), 0);
}

void BatchSender::add_item(std::string item_json) {
  Job job;
  job.kind = Job::Kind::item;
  job.text = std::move(item_json);
  push(std::move(job), 1);
}

void BatchSender::replay(SpoolRecord record) {
  const std::size_t items = record.item_count;
  Job job;
  job.kind = Job::Kind::replay;
  job.record = std::move(record);
  push(std::move(job), items);
}

RunSummary BatchSender::finish_run(const std::string& status) {
  deadline_ns_.store(now_ns() + std::chrono::duration_cast<std::chrono::nanoseconds>(settings_.finish_timeout).count());
  Job job;
  job.kind = Job::Kind::finish_run;
  job.text = status;
  push(std::move(job), 0);
  std::unique_lock lock(mutex_);
  const uint64_t target = pushed_;
  idle_.wait(lock, [&] { return handled_ >= target; });
  return last_summary_;
}

DeliveryCounts BatchSender::drain() {
  std::unique_lock lock(mutex_);
  const uint64_t target = pushed_;
  lock.unlock();
  has_work_.notify_one();
  lock.lock();
  idle_.wait(lock, [&] { return handled_ >= target; });
  return replay_counts_;
}

void BatchSender::work() {
  for (;;) {
    std::unique_lock lock(mutex_);
    const auto ready = [&] { return !queue_.empty() || stopping_; };
    if (batch_.empty()) has_work_.wait(lock, ready);
    else has_work_.wait_until(lock, batch_due_, ready);
    if (queue_.empty()) {
      const bool stop = stopping_;
      lock.unlock();
      // The batch is due, or the sender is stopping.
      if (!batch_.empty()) send_batch();
      if (stop) {
        if (run_.open) close_run("FAILED");
        idle_.notify_all();
        return;
      }
      idle_.notify_all();
      continue;
    }
    Job job = std::move(queue_.front());
    queue_.pop_front();
    queued_items_ -= job.kind == Job::Kind::item ? 1 : job.kind == Job::Kind::replay ? job.record.item_count : 0;
    lock.unlock();
    has_room_.notify_all();
    handle(job);
    lock.lock();
    ++handled_;
    lock.unlock();
    idle_.notify_all();
  }
}

void BatchSender::handle(Job& job) {
  switch (job.kind) {
    case Job::Kind::start_run:
      if (!batch_.empty()) send_batch();
      if (run_.open) close_run("FAILED");
      open_run(job.target);
      break;
    case Job::Kind::item:
      if (!run_.open) open_run(RunTarget{client_.base_url(), "", "", "{}", ""});
      if (batch_.empty()) batch_due_ = std::chrono::steady_clock::now() + settings_.batch_wait;
      batch_.push_back(std::move(job.text));
      if (batch_.size() >= settings_.batch_size) send_batch();
      break;
    case Job::Kind::finish_run:
      if (!batch_.empty()) send_batch();
      close_run(job.text);
      break;
    case Job::Kind::replay:
      handle_replay(job.record);
      break;
  }
}

void BatchSender::open_run(const RunTarget& target) {
  run_ = CurrentRun{};
  run_.target = target;
  run_.open = true;
  std::string run_id;
  const CallOutcome created = client_.create_run(target.project, target.experiment, target.metadata_json, run_id, target.dataset_version);
  if (created.delivered()) {
    run_.target.run_id = run_id;
  } else {
    run_.local = true;
    run_.target.run_id = local_run_id();
    log_("the server did not take the new run (" + created.message + "); this run is " + run_.target.run_id +
         " and its items go to the spool" + (spool_ != nullptr ? " '" + spool_->path() + "'" : " (none is set: they are lost)"));
  }
  run_.summary.run_id = run_.target.run_id;
  run_.summary.local = run_.local;
}

bool BatchSender::spool(const SpoolRecord& record) {
  if (spool_ == nullptr) return false;
  try {
    spool_->append(record);
    return true;
  } catch (const std::exception& e) {
    log_(e.what());
    return false;
  }
}

void BatchSender::send_batch() {
  if (batch_.empty()) return;
  SpoolRecord record;
  record.target = run_.target;
  record.kind = "items";
  record.idempotency_key = random_uuid();
  record.items_json = joined_array(batch_);
  record.item_count = batch_.size();
  batch_.clear();
  if (!run_.local && !run_.offline && !out_of_time()) {
    const CallOutcome sent = client_.post_items(record.target.run_id, record.idempotency_key, record.items_json);
    if (sent.delivered()) {
      run_.summary.items.delivered += record.item_count;
      return;
    }
    run_.offline = sent.kind == CallOutcome::Kind::unreachable;
    log_("a batch of " + std::to_string(record.item_count) + " items was not delivered: " + sent.message +
         (run_.offline ? "; the rest of this run goes to the spool" : ""));
  }
  run_.undelivered = true;
  if (spool(record)) run_.summary.items.spooled += record.item_count;
  else run_.summary.items.lost += record.item_count;
}

void BatchSender::close_run(const std::string& status) {
  SpoolRecord record;
  record.target = run_.target;
  record.kind = "status";
  record.status = status;
  // After a spooled batch the status waits in the spool too: a replay sets it once the items are in.
  if (!run_.local && !run_.undelivered && !out_of_time()) {
    const CallOutcome set = client_.set_status(run_.target.run_id, status);
    run_.summary.status_sent = set.delivered();
    if (!set.delivered()) log_("the run's status was not set: " + set.message);
  }
  if (!run_.summary.status_sent) spool(record);
  std::lock_guard lock(mutex_);
  last_summary_ = run_.summary;
  run_.open = false;
}

void BatchSender::handle_replay(SpoolRecord& record) {
  const std::string original_id = record.target.run_id;
  if (is_local_id(original_id)) {
    auto found = replayed_runs_.find(original_id);
    if (found == replayed_runs_.end()) {
      std::string run_id;
      const CallOutcome created =
          client_.create_run(record.target.project, record.target.experiment, record.target.metadata_json, run_id,
                             record.target.dataset_version);
      if (created.delivered()) {
        found = replayed_runs_.emplace(original_id, run_id).first;
      } else {
        log_("run " + original_id + " could not be created: " + created.message);
      }
    }
    if (found != replayed_runs_.end()) record.target.run_id = found->second;
  }
  const bool has_server_run = !is_local_id(record.target.run_id);
  const std::size_t items = record.kind == "items" ? record.item_count : 0;
  bool delivered = false;
  if (has_server_run) {
    if (record.kind == "items") {
      const CallOutcome sent = client_.post_items(record.target.run_id, record.idempotency_key, record.items_json);
      delivered = sent.delivered();
      if (!delivered) log_("a batch of run " + record.target.run_id + " was not delivered: " + sent.message);
    } else if (replay_failed_runs_.count(original_id) == 0) {
      const CallOutcome set = client_.set_status(record.target.run_id, record.status);
      delivered = set.delivered();
      if (!delivered) log_("the status of run " + record.target.run_id + " was not set: " + set.message);
    }
  }
  if (delivered) {
    replay_counts_.delivered += items;
    return;
  }
  // Back to the (new) spool, under the server's id when the run now has one.
  replay_failed_runs_.insert(original_id);
  if (spool(record)) replay_counts_.spooled += items;
  else replay_counts_.lost += items;
}

}  // namespace krino::server
