#include "process.hpp"
#include "test_paths.hpp"

#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace krino::test {

std::string krino_binary() { return std::string(KRINO_BINARY_DIR) + "/bin/krino"; }
std::string source_path(const std::string& relative) { return std::string(KRINO_SOURCE_DIR) + "/" + relative; }
std::string temp_path(const std::string& name) {
  return "/tmp/krino-e2e-" + std::to_string(::getpid()) + "-" + name;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe(in_pipe) != 0 || pipe(out_pipe) != 0 || pipe(err_pipe) != 0) throw std::runtime_error("pipe failed");
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    // The test runner may have signals blocked or ignored; the child starts clean.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    signal(SIGINT, SIG_DFL);
    for (const auto& e : options.environment) putenv(const_cast<char*>(e.c_str()));
    if (!options.working_directory.empty() && chdir(options.working_directory.c_str()) != 0) _exit(126);
    if (options.run_as && !become(*options.run_as)) _exit(126);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  // Feed stdin fully first (tests use small inputs), then read both outputs until EOF.
  if (!options.stdin_text.empty()) {
    size_t done = 0;
    while (done < options.stdin_text.size()) {
      ssize_t n = write(in_pipe[1], options.stdin_text.data() + done, options.stdin_text.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
  }
  close(in_pipe[1]);

  ProcessResult result;
  bool interrupted = false;
  std::chrono::steady_clock::time_point interrupted_at;
  bool interrupted_again = false;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  char buffer[65536];
  while (open_fds > 0) {
    int ready = poll(fds, 2, 10);
    if (!interrupted && options.interrupt_when && options.interrupt_when()) {
      kill(pid, options.interrupt_signal);
      interrupted = true;
      interrupted_at = std::chrono::steady_clock::now();
    }
    if (interrupted && !interrupted_again && options.interrupt_again_after_ms > 0 &&
        std::chrono::steady_clock::now() - interrupted_at > std::chrono::milliseconds(options.interrupt_again_after_ms)) {
      kill(pid, options.interrupt_signal);
      interrupted_again = true;
    }
    if (ready <= 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP)) == 0) continue;
      ssize_t n = read(fds[i].fd, buffer, sizeof(buffer));
      if (n <= 0) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      } else {
        (i == 0 ? result.out : result.err).append(buffer, static_cast<size_t>(n));
      }
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace krino::test
