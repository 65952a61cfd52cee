#pragma once
// `krino serve` as a benchmark's child: started on a free loopback port with the given storage
// flags, waited for until it answers, stopped with SIGTERM (a graceful stop), and measured by wait4
// (its peak RSS) as it ends.
#include "bench_process.hpp"
#include "postgres_cluster.hpp"
#include "test_http_client.hpp"

#include <boost/asio/ip/tcp.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
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

// Where an ingestion bench's server keeps its data: a database of a throwaway PostgreSQL cluster
// (`postgres`), else a data directory under the temporary directory named after the bench and this
// process (`data_dir`, which the bench removes when done).
struct BenchStorage {
  std::unique_ptr<krino::test::PostgresCluster> cluster;
  std::string data_dir;
  std::vector<std::string> flags;
};

inline BenchStorage bench_storage(bool postgres, const std::string& bench_name) {
  BenchStorage storage;
  storage.data_dir = (std::filesystem::temp_directory_path() / (bench_name + "-" + std::to_string(::getpid()))).string();
  if (postgres) {
    storage.cluster = std::make_unique<krino::test::PostgresCluster>();
    storage.flags = {"--database", storage.cluster->new_database()};
  } else {
    storage.flags = {"--data-dir", storage.data_dir};
  }
  return storage;
}

// Starts `krino serve` into `server`; false, the reason on stderr, when it did not start.
inline bool start_bench_server(std::optional<BenchServer>& server, const std::string& krino, const std::vector<std::string>& flags) {
  try {
    server.emplace(krino, flags);
    return true;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return false;
  }
}

}  // namespace krino::bench
