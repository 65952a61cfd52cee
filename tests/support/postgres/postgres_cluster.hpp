#pragma once
// A throwaway PostgreSQL cluster for tests: Debian's server binaries run on a fresh data directory
// under the system's temporary directory, listening on 127.0.0.1 at a free port, with one empty
// database. Durability is switched off (fsync, full-page writes, synchronous commit): the data is
// thrown away, and a test spends its time on queries rather than on the disk.
//
// PostgreSQL refuses to run as root and CI runs as root: then initdb and the server run as `nobody`
// (see run_as.hpp), the directory is handed to that user, and the test connects over TCP with trust
// authentication. As any other user they run as that user.
//
// The server is a child of the process that made the cluster and gets SIGQUIT (immediate shutdown)
// from the kernel when that thread ends, so a test that crashes or is killed (ctest's timeout) does
// not leave it running; make the cluster on a thread that outlives it (a test's own thread is).
// The directory such a test leaves behind is removed when the next cluster is made.
#include "run_as.hpp"

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>

namespace krino::test {

// The server binaries: Debian installs each major version under <root>/<version>/bin, and the highest
// one holding initdb and postgres is used (the one the `postgresql` package depends on). Throws
// std::runtime_error saying which package to install when there is none.
std::filesystem::path postgres_bin_dir(const std::filesystem::path& root = "/usr/lib/postgresql");

class PostgresCluster {
 public:
  static constexpr const char* user_name = "krino";        // the cluster's superuser
  static constexpr const char* database_name = "krino_test";

  // Creates, starts and waits for the cluster (at most ~30 s), then creates the database. Throws
  // std::runtime_error naming the step, with the programs' output or the server's log, when it cannot.
  PostgresCluster();
  // Immediate shutdown, waits for the server to exit, removes the directory.
  ~PostgresCluster();
  PostgresCluster(const PostgresCluster&) = delete;
  PostgresCluster& operator=(const PostgresCluster&) = delete;

  // A libpq URI for the database over TCP: postgresql://krino@127.0.0.1:<port>/krino_test
  std::string conninfo() const;
  int port() const { return port_; }
  // Creates another empty database (a fresh one per test is much cheaper than a cluster) and
  // returns its URI.
  std::string new_database();
  // The cluster's temporary directory (data directory, Unix socket, server log).
  const std::filesystem::path& directory() const { return directory_; }
  // The server's log so far (for a failing test's message).
  std::string server_log() const;

 private:
  void initialise_data_directory(const std::filesystem::path& bin_dir);
  void start_server(const std::filesystem::path& bin_dir);
  void create_database();
  void create_database_named(const std::string& name) const;
  // Stops the server if it runs and removes the directory; safe to call twice.
  void stop_and_remove() noexcept;

  std::filesystem::path directory_;
  std::optional<RunAs> run_as_;
  int port_ = 0;
  pid_t server_pid_ = -1;
  int databases_made_ = 0;
};

}  // namespace krino::test
