#include "serve_process.hpp"

#include "process.hpp"
#include "test_http_client.hpp"

#include <krino/json_parse.hpp>

#include <boost/asio/ip/tcp.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <sys/wait.h>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace krino::test {

unsigned short unused_port() {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return acceptor.local_endpoint().port();
}

namespace {

bool answers_health(unsigned short port) {
  try {
    krino::fake_llm::test::HttpCall call;
    call.method = "GET";
    call.target = "/healthz";
    call.deadline = std::chrono::milliseconds(1000);
    return krino::fake_llm::test::http_call(port, call).status() == 200u;
  } catch (const std::exception&) {
    return false;  // not listening yet
  }
}

}  // namespace

ServeProcess::ServeProcess(unsigned short port, const std::vector<std::string>& options, const std::string& stderr_path,
                           int start_timeout_ms)
    : port_(port) {
  std::vector<std::string> args = {krino_binary(), "serve", "--listen", "127.0.0.1:" + std::to_string(port)};
  args.insert(args.end(), options.begin(), options.end());
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  // fork and exec rather than posix_spawn: the child asks the kernel to kill it when this thread
  // ends, so a test that crashes or times out leaves no server behind. Between fork and exec only
  // async-signal-safe calls (the test has other threads).
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("cannot fork for " + args[0]);
  if (pid_ == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    const int log = ::open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (log >= 0) ::dup2(log, 2);
    // The test runner may block signals; the server must see SIGTERM as it would in production.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(start_timeout_ms);
  while (std::chrono::steady_clock::now() < deadline) {
    if (answers_health(port_)) return;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("krino serve exited at start: " + read_file(stderr_path));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  stop(SIGKILL);
  throw std::runtime_error("krino serve did not answer /healthz in time: " + read_file(stderr_path));
}

ServeProcess::~ServeProcess() { stop(SIGTERM); }

int ServeProcess::stop(int signal) {
  if (pid_ <= 0) return -1;
  ::kill(pid_, signal);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

krino::fake_llm::test::HttpResult serve_api(unsigned short port, const std::string& method, const std::string& target, const std::string& body) {
  krino::fake_llm::test::HttpCall call;
  call.method = method;
  call.target = target;
  call.body = body;
  call.headers = {{"Content-Type", "application/json"}};
  call.deadline = std::chrono::milliseconds(30'000);
  return krino::fake_llm::test::http_call(port, call);
}

boost::json::value serve_api_json(unsigned short port, const std::string& method, const std::string& target, const std::string& body,
                                  unsigned expected) {
  const auto got = serve_api(port, method, target, body);
  if (got.status() != expected)
    throw std::runtime_error(method + " " + target + " answered " + std::to_string(got.status()) + ": " + got.body());
  return krino::json::parse(got.body());
}

}  // namespace krino::test
