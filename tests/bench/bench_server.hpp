#pragma once
// `krino serve` as a benchmark's child: started on a free loopback port with the given storage
// flags, waited for until it answers, stopped with SIGTERM (a graceful stop), and measured by wait4
// (its peak RSS) as it ends.
#include "bench_process.hpp"
#include "test_http_client.hpp"

#include <boost/asio/ip/tcp.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace krino::bench {

class BenchServer {
 public:
  BenchServer(const std::string& krino, const std::vector<std::string>& storage) : port_(free_port()) {
    std::vector<std::string> command = {krino, "serve", "--listen", "127.0.0.1:" + std::to_string(port_)};
    command.insert(command.end(), storage.begin(), storage.end());
    thread_ = std::thread([this, command] { measured_ = run_measured(command, true, &pid_); });
    for (int attempt = 0; attempt < 1000; ++attempt) {
      try {
        krino::fake_llm::test::TestHttpClient probe(port_);
        return;
      } catch (const std::exception&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
    stop();
    throw std::runtime_error("krino serve did not start");
  }
  BenchServer(const BenchServer&) = delete;
  BenchServer& operator=(const BenchServer&) = delete;
  ~BenchServer() { stop(); }

  unsigned short port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  // Stops the server (once) and returns what wait4 measured of it.
  Measured stop() {
    if (thread_.joinable()) {
      while (pid_.load() == 0) std::this_thread::yield();
      ::kill(pid_.load(), SIGTERM);
      thread_.join();
    }
    return measured_;
  }

 private:
  static unsigned short free_port() {
    boost::asio::io_context io;
    boost::asio::ip::tcp::acceptor acceptor(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    return acceptor.local_endpoint().port();
  }

  unsigned short port_;
  std::atomic<pid_t> pid_{0};
  Measured measured_;
  std::thread thread_;
};

}  // namespace krino::bench
