#include "krino/core/process/worker_process.hpp"

#include <krino/json_parse.hpp>

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include <sys/ioctl.h>

#include <algorithm>
#include <charconv>
#include <utility>

namespace krino::core {

namespace asio = boost::asio;
using error_code = boost::system::error_code;

namespace {

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

WorkerProcess::Started WorkerProcess::start(const ChildProcess::Executor& strand, const ProcessSpec& spec,
                                            const ProcessLimits& limits, ExitCallback on_idle_exit) {
  ChildProcess::Spawned spawned = ChildProcess::spawn(strand, spec);
  if (!spawned.process) return {nullptr, std::move(spawned.error)};
  std::shared_ptr<WorkerProcess> worker(new WorkerProcess(std::move(spawned.process), limits, std::move(on_idle_exit)));
  asio::post(strand, [worker] { worker->begin(); });
  return {std::move(worker), {}};
}

WorkerProcess::WorkerProcess(std::shared_ptr<ChildProcess> child, const ProcessLimits& limits, ExitCallback on_idle_exit)
    : child_(std::move(child)),
      limits_(limits),
      on_idle_exit_(std::move(on_idle_exit)),
      pid_(child_->pid()),
      timer_(child_->executor()) {}

void WorkerProcess::begin() {
  // Both pipes are read all the time, so the worker never blocks on a full pipe, and a death
  // between requests is noticed when it happens rather than by the next item.
  read_output();
  child_->capture_errors(limits_.stderr_tail_bytes, [self = shared_from_this()] { self->after_exit(); });
  child_->async_wait_exit([self = shared_from_this()](const ExitStatus&) { self->on_exit(); });
}

void WorkerProcess::read_output() {
  child_->output().async_read_some(asio::buffer(output_chunk_), [self = shared_from_this()](const error_code& error,
                                                                                            std::size_t size) {
    if (!self->output_open_) return;
    if (size > 0) self->on_output(std::string_view(self->output_chunk_.data(), size));
    if (error) return self->on_output_end();
    self->read_output();
  });
}

void WorkerProcess::on_output(std::string_view bytes) {
  if (failure_ || stop_done_) return;  // a worker being stopped has nothing more to say
  pending_output_.append(bytes);
  if (!in_flight_.empty()) return deliver_lines();
  // Unasked output is kept (the next request takes it as its reply and sees the wrong id), but not
  // without bound.
  if (pending_output_.size() > limits_.max_output_bytes) {
    pending_output_.clear();
    become_unusable_while_idle();
  }
}

void WorkerProcess::on_output_end() {
  output_open_ = false;
  if (!in_flight_.empty() && !failure_) {
    deliver_lines();
    // While a write is in progress its completion decides (it may show the request was unread).
    if (!in_flight_.empty() && !failure_ && !writing_) fail(WorkerReply::Outcome::died);
  } else if (in_flight_.empty()) {
    become_unusable_while_idle();
  }
  after_exit();
}

void WorkerProcess::on_exit() {
  exited_ = true;
  exited_at_ = Clock::now();
  usable_.store(false, std::memory_order_release);
  if (!failure_) note_unread_in_pipe();
  child_->close_input();
  // A reply written just before the exit is still in the pipe: keep reading until it ends (or the
  // drain time is up).
  arm_timer();
  after_exit();
}

void WorkerProcess::request(std::string line, std::function<void(WorkerReply)> done, std::optional<uint64_t> id) {
  asio::post(child_->executor(),
             [self = shared_from_this(), line = std::move(line), done = std::move(done), id]() mutable {
               self->begin_request(std::move(line), std::move(done), id);
             });
}

void WorkerProcess::begin_request(std::string line, std::function<void(WorkerReply)> done, std::optional<uint64_t> id) {
  // (Asking the kernel whether it exited is a system call: only worth it for an idle worker. One
  // with requests in flight that has just died takes this one as unread.)
  if (exited_ || !output_open_ || !usable() || (in_flight_.empty() && child_->has_exited())) {
    // It exited (or broke) between requests, before the pool's check saw it: the request was
    // never written, so it is not this item's failure. The exit is reported as an idle one.
    become_unusable_while_idle();
    WorkerReply reply;
    reply.outcome = WorkerReply::Outcome::not_sent;
    return done(std::move(reply));
  }
  InFlight request;
  request.id = id;
  request.start = bytes_queued_;
  request.sent = Clock::now();
  request.done = std::move(done);
  in_flight_.push_back(std::move(request));
  bytes_queued_ += line.size();
  if (!line.empty()) queued_.push_back(std::move(line));
  write_queued();
  arm_timer(true);
  // A line that came before it was asked for (a handshake) is its answer.
  if (!pending_output_.empty()) deliver_lines();
}

void WorkerProcess::write_queued() {
  // One write at a time; what is queued meanwhile goes out together in the next one.
  if (writing_ || queued_.empty() || failure_ || !child_->input().is_open()) return;
  writing_lines_.clear();
  writing_lines_.swap(queued_);
  writing_buffers_.clear();
  for (const std::string& line : writing_lines_) writing_buffers_.push_back(asio::buffer(line));
  writing_ = true;
  asio::async_write(child_->input(), writing_buffers_, [self = shared_from_this()](const error_code& error,
                                                                                               std::size_t size) {
    self->writing_ = false;
    self->bytes_written_ += size;
    // The worker's input was closed during this write (it exited, failed or is being stopped):
    // `size` says how far the write got, so what the worker read is now known.
    if (const std::optional<uint64_t> unread = std::exchange(self->unread_in_pipe_at_close_, std::nullopt))
      self->note_unread_from(self->bytes_written_ - std::min(self->bytes_written_, *unread));
    if (self->exited_) return self->after_exit();  // it waits for the end of a write
    if (self->failure_ || self->in_flight_.empty()) return;
    // EPIPE: the worker closed its stdin (or exited) and will never read what was not written.
    if (error) {
      if (error == asio::error::broken_pipe && self->output_open_) return self->on_input_broken();
      if (error == asio::error::broken_pipe) self->note_unread_from(self->bytes_written_);
      return self->fail(WorkerReply::Outcome::died);
    }
    if (!self->output_open_) return self->fail(WorkerReply::Outcome::died);
    self->write_queued();
  });
}

void WorkerProcess::on_input_broken() {
  // Almost always the worker died: the answers it wrote before may still be on their way through
  // stdout, and each must reach its own request before the failure goes to the oldest request left
  // (failing now would drop them and blame a request that was answered). The end of stdout decides
  // (on_output_end, after_exit); a worker that lives on without its stdin is failed after kill_grace.
  // What it never read: after the write that failed, and what is still in the pipe.
  note_unread_from(bytes_written_);
  note_unread_in_pipe();
  usable_.store(false, std::memory_order_release);
  child_->close_input();
  input_broken_at_ = Clock::now();
  arm_timer(true);
}

void WorkerProcess::deliver_lines() {
  std::size_t taken = 0;  // bytes of pending_output_ already delivered
  while (!in_flight_.empty() && !failure_) {
    const std::size_t newline = pending_output_.find('\n', std::max(taken, scanned_));
    if (newline == std::string::npos) {
      scanned_ = pending_output_.size();
      if (pending_output_.size() - taken > limits_.max_output_bytes) {
        pending_output_.erase(0, taken);
        scanned_ -= taken;
        return fail(WorkerReply::Outcome::reply_too_long);
      }
      break;
    }
    WorkerReply reply;
    reply.outcome = WorkerReply::Outcome::answered;
    reply.line.assign(pending_output_, taken, newline - taken);
    if (!reply.line.empty() && reply.line.back() == '\r') reply.line.pop_back();
    taken = newline + 1;
    scanned_ = taken;
    auto request = taker_of(reply.line);
    reply.elapsed_ms = milliseconds_since(request->sent);
    complete(request, std::move(reply));
  }
  pending_output_.erase(0, taken);
  scanned_ = scanned_ >= taken ? scanned_ - taken : 0;
}

std::deque<WorkerProcess::InFlight>::iterator WorkerProcess::taker_of(std::string_view line) {
  if (!in_flight_.front().id) return in_flight_.begin();
  if (const std::optional<uint64_t> id = line_reply_id(line)) {
    for (auto request = in_flight_.begin(); request != in_flight_.end(); ++request)
      if (request->id == id) return request;
  }
  return in_flight_.begin();
}

void WorkerProcess::note_unread_in_pipe() {
  // A worker that exits between requests may do so just after krino wrote the next ones: they
  // still sit whole in the pipe, so they are not the worker's failure. Every caller closes the
  // input next, which ends a write in progress; how much of it reached the pipe is known only when
  // its completion runs, so the count waits for it (and so does after_exit).
  if (!child_->input().is_open()) return;
  int unread = 0;
  if (::ioctl(child_->input().native_handle(), FIONREAD, &unread) != 0 || unread < 0) return;
  if (writing_) {
    unread_in_pipe_at_close_ = static_cast<uint64_t>(unread);
    return;
  }
  note_unread_from(bytes_written_ - std::min<uint64_t>(bytes_written_, static_cast<uint64_t>(unread)));
}

void WorkerProcess::note_unread_from(uint64_t read_up_to) {
  for (InFlight& request : in_flight_)
    if (request.start >= read_up_to) request.unread = true;
}

void WorkerProcess::fail(WorkerReply::Outcome why) {
  if (failure_) return;
  note_unread_in_pipe();
  failure_ = why;
  usable_.store(false, std::memory_order_release);
  pending_output_.clear();
  scanned_ = 0;
  child_->close_input();
  child_->terminate(limits_.kill_grace);
  arm_timer();
  after_exit();
}

void WorkerProcess::become_unusable_while_idle() {
  if (!usable()) return;
  usable_.store(false, std::memory_order_release);
  child_->close_input();
  child_->terminate(limits_.kill_grace);
}

void WorkerProcess::stop(ExitCallback done) {
  asio::post(child_->executor(), [self = shared_from_this(), done = std::move(done)]() mutable {
    self->begin_stop(std::move(done), false);
  });
}

void WorkerProcess::shutdown(ExitCallback done) {
  asio::post(child_->executor(), [self = shared_from_this(), done = std::move(done)]() mutable {
    self->begin_stop(std::move(done), true);
  });
}

void WorkerProcess::begin_stop(ExitCallback done, bool wait_for_exit_first) {
  usable_.store(false, std::memory_order_release);
  stop_done_ = std::move(done);
  // Requests still in flight did nothing wrong: the caller stops the worker over another one.
  if (!failure_ && !in_flight_.empty()) {
    note_unread_in_pipe();
    failure_ = WorkerReply::Outcome::interrupted;
  }
  pending_output_.clear();
  scanned_ = 0;
  if (!exited_) {
    if (wait_for_exit_first) voluntary_exit_deadline_ = Clock::now() + limits_.kill_grace;
    else child_->terminate(limits_.kill_grace);
  }
  child_->close_input();  // end of input: a well-behaved worker exits now
  arm_timer();
  after_exit();
}

void WorkerProcess::arm_timer(bool only_if_sooner) {
  Clock::time_point wake = Clock::time_point::max();
  if (exited_) {
    if (output_open_ || child_->errors_open()) wake = exited_at_ + limits_.drain_after_exit;
  } else if (!in_flight_.empty() && !failure_) {
    // The oldest request's deadline comes first: all have the same timeout.
    if (limits_.timeout.count() > 0) wake = in_flight_.front().sent + limits_.timeout;
    if (limits_.cancelled) wake = std::min(wake, Clock::now() + limits_.cancellation_poll);
    if (input_broken_at_) wake = std::min(wake, *input_broken_at_ + limits_.kill_grace);
  } else if (voluntary_exit_deadline_ && !child_->terminating()) {
    wake = *voluntary_exit_deadline_;
  }
  // Per request, the timer is only ever brought forward (re-arming is a system call): a wake-up
  // that finds nothing due arms it for what is due next.
  if (only_if_sooner && wake >= timer_wake_) return;
  timer_wake_ = wake;
  timer_.arm(wake, [self = shared_from_this()] { self->on_timer(); });
}

void WorkerProcess::on_timer() {
  timer_wake_ = Clock::time_point::max();
  if (exited_) {
    // Drained long enough: a process outside the group holds the pipes.
    error_code ignored;
    output_open_ = false;
    child_->output().close(ignored);
    child_->close_errors();
    return after_exit();
  }
  if (!in_flight_.empty() && !failure_) {
    if (limits_.cancelled && limits_.cancelled()) return fail(WorkerReply::Outcome::cancelled);
    if (input_broken_at_ && Clock::now() >= *input_broken_at_ + limits_.kill_grace) return fail(WorkerReply::Outcome::died);
    if (limits_.timeout.count() > 0 && Clock::now() >= in_flight_.front().sent + limits_.timeout)
      return fail(WorkerReply::Outcome::timed_out);
  } else if (voluntary_exit_deadline_ && Clock::now() >= *voluntary_exit_deadline_) {
    child_->terminate(limits_.kill_grace);
  }
  arm_timer();
}

WorkerExit WorkerProcess::exit_report() const {
  const TailBuffer& errors = child_->error_tail();
  return WorkerExit{pid_, child_->status(), std::string(errors.tail()), errors.truncated(), child_->terminating()};
}

void WorkerProcess::after_exit() {
  // Whatever follows a failure or a stop waits for the process to be reaped and its pipes drained,
  // so the report has the exit status and the last words on stderr.
  // A write still in progress decides which requests the worker never read (note_unread_in_pipe).
  if (!exited_ || output_open_ || child_->errors_open() || writing_) return;
  if (!gone()) {
    gone_.store(true, std::memory_order_release);
    timer_.cancel();
    timer_wake_ = Clock::time_point::max();
  }
  bool blamed = false;  // a request's outcome tells of this exit
  if (!in_flight_.empty()) {
    if (!failure_) {
      deliver_lines();  // the last lines before the exit
      if (!in_flight_.empty()) failure_ = WorkerReply::Outcome::died;
    }
    blamed = complete_all_failed();
  }
  pending_output_.clear();
  if (stop_done_) {
    auto done = std::move(stop_done_);
    stop_done_ = nullptr;
    on_idle_exit_ = nullptr;
    done(exit_report());
  } else if (on_idle_exit_ && (!failure_ || !blamed)) {
    auto notify = std::move(on_idle_exit_);
    on_idle_exit_ = nullptr;
    notify(exit_report());
  }
}

bool WorkerProcess::complete_all_failed() {
  const WorkerExit exit = exit_report();
  const WorkerReply::Outcome failure = *failure_;
  std::deque<InFlight> requests;
  requests.swap(in_flight_);
  bool blamed = false;
  bool oldest = true;
  for (InFlight& request : requests) {
    WorkerReply reply;
    if (failure == WorkerReply::Outcome::cancelled) reply.outcome = failure;
    else if (request.unread && (!oldest || failure == WorkerReply::Outcome::died)) reply.outcome = WorkerReply::Outcome::not_sent;
    else if (oldest) reply.outcome = failure;
    else reply.outcome = WorkerReply::Outcome::interrupted;
    oldest = false;
    if (reply.outcome != WorkerReply::Outcome::not_sent && reply.outcome != WorkerReply::Outcome::interrupted)
      blamed = true;
    reply.exit = exit;
    reply.elapsed_ms = milliseconds_since(request.sent);
    auto done = std::move(request.done);
    done(std::move(reply));
  }
  return blamed;
}

void WorkerProcess::complete(std::deque<InFlight>::iterator request, WorkerReply reply) {
  auto done = std::move(request->done);
  in_flight_.erase(request);
  done(std::move(reply));
}

std::optional<uint64_t> line_reply_id(std::string_view line) {
  // {"id":17,...: the usual shape, read without a parser.
  std::size_t at = 0;
  auto skip_space = [&] {
    while (at < line.size() && (line[at] == ' ' || line[at] == '\t' || line[at] == '\r' || line[at] == '\n')) ++at;
  };
  auto take = [&](std::string_view text) {
    skip_space();
    if (line.substr(at, text.size()) != text) return false;
    at += text.size();
    return true;
  };
  if (take("{") && take("\"id\"") && take(":")) {
    skip_space();
    uint64_t id = 0;
    const auto [end, error] = std::from_chars(line.data() + at, line.data() + line.size(), id);
    if (error == std::errc() && end != line.data() + at) {
      at = static_cast<std::size_t>(end - line.data());
      skip_space();
      if (at < line.size() && (line[at] == ',' || line[at] == '}')) return id;
    }
  }
  boost::json::error_code ec;
  const boost::json::value value = krino::json::parse(line, ec);
  if (ec || !value.is_object()) return std::nullopt;
  const boost::json::value* id = value.get_object().if_contains("id");
  if (id == nullptr) return std::nullopt;
  if (id->is_uint64()) return id->get_uint64();
  if (id->is_int64() && id->get_int64() >= 0) return static_cast<uint64_t>(id->get_int64());
  return std::nullopt;
}

}  // namespace krino::core
