// krino-fake-llm as a process: it prints its port, serves the script, and exits 0 on SIGTERM.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
#include <csignal>
#include <fstream>
#include <poll.h>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "test_http_client.hpp"
#include "test_paths.hpp"

using namespace krino::fake_llm::test;

namespace {

// Spawned with stdout on a pipe; read it line by line while the server keeps running, which the
// e2e run_process helper (it waits for exit) does not do.
class ServerProcess {
 public:
  explicit ServerProcess(const std::vector<std::string>& args) {
    int out[2];
    if (pipe(out) != 0) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      dup2(out[1], 1);
      close(out[0]);
      close(out[1]);
      std::vector<char*> argv;
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(out[1]);
    out_ = out[0];
  }
  ~ServerProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    close(out_);
  }

  // The first stdout line, or "" if none arrives within the timeout.
  std::string read_line(int timeout_ms) {
    std::string line;
    pollfd fd{out_, POLLIN, 0};
    while (poll(&fd, 1, timeout_ms) > 0) {
      char c;
      if (read(out_, &c, 1) != 1 || c == '\n') break;
      line += c;
    }
    return line;
  }

  int terminate() {
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  pid_t pid_ = -1;
  int out_ = -1;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(fake_llm_cli)

BOOST_AUTO_TEST_CASE(prints_its_port_serves_the_script_and_exits_cleanly_on_sigterm) {
  std::string script = "/tmp/krino-fake-llm-test-" + std::to_string(getpid()) + ".json";
  std::ofstream(script) << R"({"rules": [{"match": {"contains": "hello"}, "reply": {"content": "hi there"}}]})";
  ServerProcess server({KRINO_FAKE_LLM_BINARY, "--port", "0", "--script", script, "--latency-ms", "10",
                        "--threads", "2", "--require-key", "k1"});
  std::string line = server.read_line(10000);
  const std::string prefix = "listening on 127.0.0.1:";
  BOOST_TEST_REQUIRE(line.starts_with(prefix), "first line: " << line);
  auto port = static_cast<std::uint16_t>(std::stoi(line.substr(prefix.size())));

  HttpCall call;
  call.target = "/v1/chat/completions";
  call.body = openai_body("m", "hello");
  call.headers = {{"Authorization", "Bearer k1"}};
  HttpResult result = http_call(port, call);
  BOOST_TEST_REQUIRE(!result.error);
  BOOST_TEST(result.status() == 200u);
  BOOST_TEST(boost::json::parse(result.body()).at_pointer("/choices/0/message/content").as_string() == "hi there");

  BOOST_TEST(server.terminate() == 0);
  std::remove(script.c_str());
}

BOOST_AUTO_TEST_SUITE_END()
