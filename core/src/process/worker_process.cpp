#include "krino/core/process/worker_process.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include <sys/ioctl.h>

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
  if (busy_) return deliver_if_line();
  // Unasked output is kept (the next request takes it as its reply and sees the wrong id), but not
  // without bound.
  if (pending_output_.size() > limits_.max_output_bytes) {
    pending_output_.clear();
    become_unusable_while_idle();
  }
}

void WorkerProcess::on_output_end() {
  output_open_ = false;
  if (busy_ && !failure_) {
    deliver_if_line();
    if (busy_ && !writing_) fail(WorkerReply::Outcome::died);
  } else if (!busy_) {
    become_unusable_while_idle();
  }
  after_exit();
}

void WorkerProcess::on_exit() {
  exited_ = true;
  exited_at_ = Clock::now();
  usable_.store(false, std::memory_order_release);
  if (!failure_) note_whether_request_unread();
  child_->close_input();
  // A reply written just before the exit is still in the pipe: keep reading until it ends (or the
  // drain time is up).
  arm_timer();
  after_exit();
}

void WorkerProcess::request(std::string line, std::function<void(WorkerReply)> done) {
  asio::post(child_->executor(), [self = shared_from_this(), line = std::move(line), done = std::move(done)]() mutable {
    self->begin_request(std::move(line), std::move(done));
  });
}

void WorkerProcess::begin_request(std::string line, std::function<void(WorkerReply)> done) {
  if (exited_ || !output_open_ || !usable() || child_->has_exited()) {
    // It exited (or broke) between requests, before the pool's check saw it: the request was
    // never written, so it is not this item's failure. The exit is reported as an idle one.
    become_unusable_while_idle();
    WorkerReply reply;
    reply.outcome = WorkerReply::Outcome::not_sent;
    return done(std::move(reply));
  }
  busy_ = true;
  failure_.reset();
  request_unread_ = false;
  request_done_ = std::move(done);
  request_started_ = Clock::now();
  request_line_ = std::move(line);
  writing_ = true;
  asio::async_write(child_->input(), asio::buffer(request_line_), [self = shared_from_this()](const error_code& error,
                                                                                             std::size_t) {
    self->writing_ = false;
    if (!self->busy_ || self->failure_) return;
    // EPIPE: the worker closed its stdin (or exited) and will never read this request.
    if (error) {
      self->request_unread_ = self->request_unread_ || error == asio::error::broken_pipe;
      return self->fail(WorkerReply::Outcome::died);
    }
    self->deliver_if_line();
    if (self->busy_ && !self->failure_ && !self->output_open_) self->fail(WorkerReply::Outcome::died);
  });
  arm_timer();
}

void WorkerProcess::deliver_if_line() {
  // A reply that comes before the whole request was written still waits for the write to finish,
  // so two writes never overlap on the pipe.
  if (!busy_ || failure_ || writing_) return;
  const std::size_t newline = pending_output_.find('\n', scanned_);
  if (newline == std::string::npos) {
    scanned_ = pending_output_.size();
    if (pending_output_.size() > limits_.max_output_bytes) fail(WorkerReply::Outcome::reply_too_long);
    return;
  }
  WorkerReply reply;
  reply.outcome = WorkerReply::Outcome::answered;
  reply.line.assign(pending_output_, 0, newline);
  if (!reply.line.empty() && reply.line.back() == '\r') reply.line.pop_back();
  pending_output_.erase(0, newline + 1);
  scanned_ = 0;
  reply.elapsed_ms = milliseconds_since(request_started_);
  complete_request(std::move(reply));
}

void WorkerProcess::note_whether_request_unread() {
  // A worker that exits between requests may do so just after krino wrote the next one: the
  // request still sits whole in the pipe, so that item is not the worker's failure. (The write
  // may have happened with its completion not yet handled, so writing_ says nothing here.)
  if (!busy_ || request_unread_ || !child_->input().is_open()) return;
  int unread = 0;
  if (::ioctl(child_->input().native_handle(), FIONREAD, &unread) == 0 &&
      static_cast<std::size_t>(unread) == request_line_.size())
    request_unread_ = true;
}

void WorkerProcess::fail(WorkerReply::Outcome why) {
  if (failure_) return;
  if (why == WorkerReply::Outcome::died) note_whether_request_unread();
  failure_ = why;
  usable_.store(false, std::memory_order_release);
  pending_output_.clear();
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
  pending_output_.clear();
  if (!exited_) {
    if (wait_for_exit_first) voluntary_exit_deadline_ = Clock::now() + limits_.kill_grace;
    else child_->terminate(limits_.kill_grace);
  }
  child_->close_input();  // end of input: a well-behaved worker exits now
  arm_timer();
  after_exit();
}

void WorkerProcess::arm_timer() {
  Clock::time_point wake = Clock::time_point::max();
  if (exited_) {
    if (output_open_ || child_->errors_open()) wake = exited_at_ + limits_.drain_after_exit;
  } else if (busy_ && !failure_) {
    if (limits_.timeout.count() > 0) wake = request_started_ + limits_.timeout;
    if (limits_.cancelled) wake = std::min(wake, Clock::now() + limits_.cancellation_poll);
  } else if (voluntary_exit_deadline_ && !child_->terminating()) {
    wake = *voluntary_exit_deadline_;
  }
  timer_.arm(wake, [self = shared_from_this()] { self->on_timer(); });
}

void WorkerProcess::on_timer() {
  if (exited_) {
    // Drained long enough: a process outside the group holds the pipes.
    error_code ignored;
    output_open_ = false;
    child_->output().close(ignored);
    child_->close_errors();
    return after_exit();
  }
  if (busy_ && !failure_) {
    if (limits_.cancelled && limits_.cancelled()) return fail(WorkerReply::Outcome::cancelled);
    if (limits_.timeout.count() > 0 && Clock::now() >= request_started_ + limits_.timeout)
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
  if (!exited_ || output_open_ || child_->errors_open()) return;
  if (!gone()) {
    gone_.store(true, std::memory_order_release);
    timer_.cancel();
  }
  if (busy_) {
    if (!failure_) {
      deliver_if_line();  // the last line before the exit
      if (busy_) failure_ = WorkerReply::Outcome::died;
    }
    if (busy_) {
      WorkerReply reply;
      reply.outcome = request_unread_ && *failure_ == WorkerReply::Outcome::died ? WorkerReply::Outcome::not_sent
                                                                                : *failure_;
      reply.exit = exit_report();
      reply.elapsed_ms = milliseconds_since(request_started_);
      complete_request(std::move(reply));
    }
  }
  pending_output_.clear();
  if (stop_done_) {
    auto done = std::move(stop_done_);
    stop_done_ = nullptr;
    on_idle_exit_ = nullptr;
    done(exit_report());
  } else if (on_idle_exit_ && (!failure_ || request_unread_)) {
    auto notify = std::move(on_idle_exit_);
    on_idle_exit_ = nullptr;
    notify(exit_report());
  }
}

void WorkerProcess::complete_request(WorkerReply reply) {
  busy_ = false;
  if (!exited_) timer_.cancel();
  auto done = std::move(request_done_);
  request_done_ = nullptr;
  done(std::move(reply));
}

}  // namespace krino::core
