#include "krino/core/process/process_run.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>

namespace krino::core {

namespace asio = boost::asio;
using error_code = boost::system::error_code;

void ProcessRun::start(std::shared_ptr<ChildProcess> child, std::string input, const ProcessLimits& limits,
                       Clock::time_point started, Callback done) {
  std::shared_ptr<ProcessRun> run(new ProcessRun(std::move(child), std::move(input), limits, started, std::move(done)));
  // Every operation starts on the strand, so writes happen on an I/O thread (where SIGPIPE is
  // blocked, see IoService) and never inside the caller.
  asio::post(run->child_->executor(), [run] { run->begin(); });
}

ProcessRun::ProcessRun(std::shared_ptr<ChildProcess> child, std::string input, const ProcessLimits& limits,
                       Clock::time_point started, Callback done)
    : child_(std::move(child)),
      input_(std::move(input)),
      limits_(limits),
      done_(std::move(done)),
      started_(started),
      timer_(child_->executor()) {}

void ProcessRun::begin() {
  asio::async_write(child_->input(), asio::buffer(input_), [self = shared_from_this()](const error_code&, std::size_t) {
    // A program that does not read its input (or stops early) closes the pipe; that is its
    // business, not an error: its output and exit status say how it went.
    self->child_->close_input();
  });
  read_output();
  child_->capture_errors(limits_.stderr_tail_bytes, [self = shared_from_this()] { self->finish_if_done(); });
  child_->async_wait_exit([self = shared_from_this()](const ExitStatus&) { self->on_exit(); });
  arm_timer();
}

void ProcessRun::read_output() {
  child_->output().async_read_some(asio::buffer(output_chunk_), [self = shared_from_this()](const error_code& error,
                                                                                            std::size_t size) {
    if (!self->output_open_) return;
    std::string& output = self->result_.output;
    const std::size_t room = self->limits_.max_output_bytes - output.size();
    output.append(self->output_chunk_.data(), std::min(size, room));
    if (size > room) {
      self->stop(ProcessRunResult::Ending::output_too_large);
      self->output_open_ = false;
      error_code ignored;
      self->child_->output().close(ignored);  // the child's next write fails: it cannot block on us
      return self->finish_if_done();
    }
    if (error) {
      self->output_open_ = false;
      return self->finish_if_done();
    }
    self->read_output();
  });
}

void ProcessRun::on_exit() {
  exited_ = true;
  exited_at_ = Clock::now();
  result_.status = child_->status();
  child_->close_input();
  // The group is gone, so the pipes reach their end at once unless a process that left the group
  // still holds them; arm_timer() bounds that wait.
  arm_timer();
  finish_if_done();
}

void ProcessRun::stop(ProcessRunResult::Ending why) {
  if (result_.ending != ProcessRunResult::Ending::exited) return;  // the first reason is the one reported
  result_.ending = why;
  if (exited_) return;
  child_->close_input();
  child_->terminate(limits_.kill_grace);
}

void ProcessRun::arm_timer() {
  if (finished_) return;
  Clock::time_point wake = Clock::time_point::max();
  if (exited_) {
    wake = exited_at_ + limits_.drain_after_exit;
  } else if (!child_->terminating()) {
    if (limits_.timeout.count() > 0) wake = started_ + limits_.timeout;
    if (limits_.cancelled) wake = std::min(wake, Clock::now() + limits_.cancellation_poll);
  }
  timer_.arm(wake, [self = shared_from_this()] {
    if (!self->finished_) self->on_timer();
  });
}

void ProcessRun::on_timer() {
  if (exited_) {
    close_pipes();  // drained long enough
    return finish_if_done();
  }
  if (limits_.cancelled && limits_.cancelled()) stop(ProcessRunResult::Ending::cancelled);
  else if (limits_.timeout.count() > 0 && Clock::now() >= started_ + limits_.timeout)
    stop(ProcessRunResult::Ending::timed_out);
  arm_timer();
}

void ProcessRun::close_pipes() {
  error_code ignored;
  output_open_ = false;
  child_->output().close(ignored);
  child_->close_errors();
}

void ProcessRun::finish_if_done() {
  if (finished_ || !exited_ || output_open_ || child_->errors_open()) return;
  finished_ = true;
  timer_.cancel();
  result_.stderr_tail.assign(child_->error_tail().tail());
  result_.stderr_truncated = child_->error_tail().truncated();
  result_.elapsed_ms = std::chrono::duration<double, std::milli>(exited_at_ - started_).count();
  auto done = std::move(done_);
  done(std::move(result_));
}

}  // namespace krino::core
