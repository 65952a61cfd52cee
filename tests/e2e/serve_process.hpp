#pragma once
// `krino serve` as a background child process for end-to-end tests that talk to it while it runs
// (run_process in process.hpp waits for its child instead). Ready once constructed: GET /healthz
// has answered 200. Stopped with SIGTERM when destroyed, or with any signal on demand (SIGKILL
// for a crash).
#include <sys/types.h>

#include <boost/json/value.hpp>

#include <string>
#include <vector>

#include "test_http_client.hpp"

namespace krino::test {

// A port nothing listens on right now (the system's choice for a socket bound to port 0).
unsigned short unused_port();

class ServeProcess {
 public:
  // Runs `krino serve --listen 127.0.0.1:<port>` followed by `options`; its stderr (the access log)
  // goes to `stderr_path`. Throws std::runtime_error, with that file's text, when the server exits
  // or does not answer within `start_timeout_ms`.
  ServeProcess(unsigned short port, const std::vector<std::string>& options, const std::string& stderr_path = "/dev/null",
               int start_timeout_ms = 10'000);
  ~ServeProcess();
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  // Sends `signal` and waits for the process; returns its exit code (128 + signal when killed by
  // one), or -1 when it was stopped already.
  int stop(int signal);
  unsigned short port() const { return port_; }
  bool running() const { return pid_ > 0; }

 private:
  unsigned short port_;
  pid_t pid_ = -1;
};

// One JSON request to a running server (Content-Type application/json, 30 s deadline).
krino::fake_llm::test::HttpResult serve_api(unsigned short port, const std::string& method, const std::string& target, const std::string& body = "");

// The same, requiring the status `expected` (the message names the request and the answer), parsed.
boost::json::value serve_api_json(unsigned short port, const std::string& method, const std::string& target, const std::string& body = "",
                                  unsigned expected = 200);

}  // namespace krino::test
