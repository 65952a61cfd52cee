#include "krino/core/process/child_process.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace krino::core {
namespace {

// A pipe whose ends are close-on-exec and not 0, 1 or 2: the child's dup2 onto its standard
// descriptors must never be a no-op that leaves close-on-exec set (which happens when krino itself
// was started with a standard descriptor closed).
struct PipeEnds {
  int read = -1;
  int write = -1;
};

int above_standard(int fd) {
  if (fd < 0 || fd > STDERR_FILENO) return fd;
  const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  ::close(fd);
  return moved;
}

bool open_pipe(PipeEnds& ends) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  ends.read = above_standard(fds[0]);
  ends.write = above_standard(fds[1]);
  return ends.read >= 0 && ends.write >= 0;
}

void close_fd(int& fd) noexcept {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// The attributes and file actions of one posix_spawn call, destroyed on every path.
class SpawnSetup {
 public:
  SpawnSetup() {
    ::posix_spawnattr_init(&attributes_);
    ::posix_spawn_file_actions_init(&actions_);
  }
  ~SpawnSetup() {
    ::posix_spawnattr_destroy(&attributes_);
    ::posix_spawn_file_actions_destroy(&actions_);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;

  int prepare(const ProcessSpec& spec, const PipeEnds& in, const PipeEnds& out, const PipeEnds& err) {
    sigset_t empty;
    sigemptyset(&empty);
    sigset_t all;
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    const short flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
    if (int rc = ::posix_spawnattr_setflags(&attributes_, flags)) return rc;
    if (int rc = ::posix_spawnattr_setpgroup(&attributes_, 0)) return rc;
    if (int rc = ::posix_spawnattr_setsigmask(&attributes_, &empty)) return rc;
    if (int rc = ::posix_spawnattr_setsigdefault(&attributes_, &all)) return rc;
    if (int rc = ::posix_spawn_file_actions_adddup2(&actions_, in.read, STDIN_FILENO)) return rc;
    if (int rc = ::posix_spawn_file_actions_adddup2(&actions_, out.write, STDOUT_FILENO)) return rc;
    if (int rc = ::posix_spawn_file_actions_adddup2(&actions_, err.write, STDERR_FILENO)) return rc;
    if (int rc = ::posix_spawn_file_actions_addclosefrom_np(&actions_, STDERR_FILENO + 1)) return rc;
    if (!spec.working_directory.empty())
      if (int rc = ::posix_spawn_file_actions_addchdir_np(&actions_, spec.working_directory.c_str())) return rc;
    return 0;
  }

  const posix_spawnattr_t* attributes() const { return &attributes_; }
  const posix_spawn_file_actions_t* actions() const { return &actions_; }

 private:
  posix_spawnattr_t attributes_;
  posix_spawn_file_actions_t actions_;
};

std::vector<char*> c_strings(const std::vector<std::string>& strings, const std::vector<std::string>* more = nullptr) {
  std::vector<char*> out;
  out.reserve(strings.size() + (more ? more->size() : 0) + 1);
  for (const auto& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  if (more)
    for (const auto& s : *more) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

}  // namespace

ChildProcess::Spawned ChildProcess::spawn(const Executor& strand, const ProcessSpec& spec,
                                          const std::vector<std::string>& extra_environment) {
  PipeEnds in, out, err;
  auto close_all = [&] {
    for (int* fd : {&in.read, &in.write, &out.read, &out.write, &err.read, &err.write}) close_fd(*fd);
  };
  if (!open_pipe(in) || !open_pipe(out) || !open_pipe(err)) {
    const int error = errno;
    close_all();
    return {nullptr, "could not create pipes for '" + spec.executable + "': " + std::strerror(error)};
  }

  SpawnSetup setup;
  pid_t pid = -1;
  int rc = setup.prepare(spec, in, out, err);
  if (rc == 0) {
    std::vector<char*> argv = c_strings(spec.arguments);
    std::vector<char*> envp = c_strings(spec.environment, &extra_environment);
    rc = ::posix_spawn(&pid, spec.executable.c_str(), setup.actions(), setup.attributes(), argv.data(), envp.data());
  }
  // The child's ends belong to the child now (or to nobody).
  close_fd(in.read);
  close_fd(out.write);
  close_fd(err.write);
  if (rc != 0) {
    close_all();
    std::string where = spec.working_directory.empty() ? "" : " in " + spec.working_directory.string();
    return {nullptr, "could not start '" + spec.executable + "'" + where + ": " + std::strerror(rc)};
  }
  if (spec.memory_limit_bytes > 0) {
    // posix_spawn has no rlimit attribute. glibc's spawn returns once the child has exec'd (it
    // shares the parent's memory until then), so the limit lands microseconds into the program's
    // start-up: far too early for a leak to have got anywhere.
    const struct rlimit limit{spec.memory_limit_bytes, spec.memory_limit_bytes};
    ::prlimit(pid, RLIMIT_AS, &limit, nullptr);
  }
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  std::shared_ptr<ChildProcess> child(new ChildProcess(strand, pid, pidfd, in.write, out.read, err.read));
  return {std::move(child), {}};
}

ChildProcess::ChildProcess(const Executor& strand, pid_t pid, int pidfd, int input, int output, int errors)
    : strand_(strand),
      pid_(pid),
      input_(strand, input),
      output_(strand, output),
      errors_(strand, errors),
      poll_timer_(strand),
      kill_timer_(strand) {
  if (pidfd >= 0) exit_watch_.emplace(strand, pidfd);
}

ChildProcess::~ChildProcess() {
  if (reaped_) return;
  signal_group(SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
}

void ChildProcess::close_input() noexcept {
  boost::system::error_code ignored;
  input_.close(ignored);
}

void ChildProcess::capture_errors(std::size_t tail_bytes, std::function<void()> on_end) {
  error_tail_ = TailBuffer(tail_bytes);
  read_errors(std::move(on_end));
}

void ChildProcess::read_errors(std::function<void()> on_end) {
  errors_.async_read_some(boost::asio::buffer(error_chunk_), [self = shared_from_this(), on_end = std::move(on_end)](
                                                                 const boost::system::error_code& error,
                                                                 std::size_t size) mutable {
    if (!self->errors_open_) return;  // close_errors() already reported the end
    self->error_tail_.append(std::string_view(self->error_chunk_.data(), size));
    if (!error) return self->read_errors(std::move(on_end));
    self->errors_open_ = false;
    on_end();
  });
}

void ChildProcess::close_errors() noexcept {
  errors_open_ = false;
  boost::system::error_code ignored;
  errors_.close(ignored);
}

void ChildProcess::signal_group(int signal) const noexcept {
  // The leader's pid is the group's id; while the leader is unreaped it cannot name anyone else.
  ::kill(-pid_, signal);
}

bool ChildProcess::has_exited() const noexcept {
  if (reaped_) return true;
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid != 0;
}

bool ChildProcess::try_reap() {
  if (!has_exited()) return false;
  if (reaped_) return true;
  signal_group(SIGKILL);  // what the leader left behind (a background job, a hung grandchild)
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  reaped_ = true;
  status_ = ExitStatus::from_wait_status(status);
  kill_timer_.cancel();
  if (exit_watch_) {
    boost::system::error_code ignored;
    exit_watch_->close(ignored);
  }
  return true;
}

void ChildProcess::async_wait_exit(std::function<void(const ExitStatus&)> handler) {
  if (reaped_) {
    boost::asio::post(strand_, [self = shared_from_this(), handler = std::move(handler)] { handler(self->status_); });
    return;
  }
  if (exit_watch_ && exit_watch_->is_open()) watch_exit(std::move(handler));
  else poll_exit(std::move(handler), std::chrono::milliseconds(1));
}

void ChildProcess::watch_exit(std::function<void(const ExitStatus&)> handler) {
  exit_watch_->async_wait(Pipe::wait_read, [self = shared_from_this(), handler = std::move(handler)](
                                               const boost::system::error_code& error) mutable {
    if (self->try_reap()) return handler(self->status_);
    // A pidfd is readable only once the process has exited, so this is a spurious wake-up, or
    // the descriptor failed: poll instead.
    if (error) self->poll_exit(std::move(handler), std::chrono::milliseconds(1));
    else self->watch_exit(std::move(handler));
  });
}

void ChildProcess::poll_exit(std::function<void(const ExitStatus&)> handler, std::chrono::milliseconds interval) {
  if (try_reap()) {
    boost::asio::post(strand_, [self = shared_from_this(), handler = std::move(handler)] { handler(self->status_); });
    return;
  }
  poll_timer_.expires_after(interval);
  poll_timer_.async_wait([self = shared_from_this(), handler = std::move(handler), interval](
                             const boost::system::error_code&) mutable {
    self->poll_exit(std::move(handler), std::min(interval * 2, std::chrono::milliseconds(50)));
  });
}

void ChildProcess::terminate(std::chrono::milliseconds grace) {
  if (reaped_) return;
  if (grace.count() <= 0) {
    signal_group(SIGKILL);
    terminating_ = true;
    return;
  }
  signal_group(SIGTERM);
  if (terminating_) return;
  terminating_ = true;
  kill_timer_.expires_after(grace);
  kill_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
    if (!error && !self->reaped_) self->signal_group(SIGKILL);
  });
}

}  // namespace krino::core
