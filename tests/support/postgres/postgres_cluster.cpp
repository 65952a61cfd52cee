#include "postgres_cluster.hpp"

#include "process.hpp"

#include <libpq-fe.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

namespace krino::test {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Directory names: krino-pg-<pid of the test process>-XXXXXX, so that the next cluster can tell the
// directories of dead test processes from those of running ones.
constexpr const char* cluster_directory_prefix = "krino-pg-";
constexpr auto server_start_timeout = std::chrono::seconds(30);
constexpr auto server_stop_timeout = std::chrono::seconds(10);
constexpr int port_attempts = 5;

bool process_alive(pid_t pid) { return ::kill(pid, 0) == 0 || errno != ESRCH; }

// Removes the directories of clusters whose test process is gone (it crashed or was killed). Their
// server died with it (the parent-death signal); a server that somehow survived shuts itself down
// once it finds its data directory's lock file gone.
void remove_stale_cluster_directories() {
  std::error_code ec;
  const fs::path temp = fs::temp_directory_path(ec);
  if (ec) return;
  const std::string prefix = cluster_directory_prefix;
  for (const auto& entry : fs::directory_iterator(temp, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const pid_t owner = static_cast<pid_t>(std::strtol(name.c_str() + prefix.size(), nullptr, 10));
    if (owner <= 0 || owner == ::getpid() || process_alive(owner)) continue;
    std::error_code remove_error;
    fs::remove_all(entry.path(), remove_error);
  }
}

fs::path make_cluster_directory() {
  std::string pattern = (fs::temp_directory_path() / cluster_directory_prefix).string();
  pattern.append(std::to_string(::getpid())).append("-XXXXXX");
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("PostgreSQL cluster: cannot create a directory like " + pattern + ": " +
                             std::strerror(errno));
  }
  return pattern;
}

// A port nobody listens on now: the kernel's pick for port 0. Another process may take it before
// the server binds it; the caller then tries again with another.
int free_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(std::string("PostgreSQL cluster: socket: ") + std::strerror(errno));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof(address);
  const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
                  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  const int error = errno;
  ::close(fd);
  if (!ok) throw std::runtime_error(std::string("PostgreSQL cluster: no free port: ") + std::strerror(error));
  return ntohs(address.sin_port);
}

std::string read_whole_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string keyword_conninfo(int port, const char* database) {
  std::string text = "host=127.0.0.1 port=";
  text.append(std::to_string(port)).append(" user=").append(PostgresCluster::user_name);
  text.append(" dbname=").append(database).append(" connect_timeout=5");
  return text;
}

// Starts `argv` as a child whose output goes to `log_path`, as `run_as` when set. The child gets
// SIGQUIT when this thread ends: PostgreSQL's immediate shutdown, so a crashed test leaves no server.
pid_t spawn_server(const std::vector<std::string>& argv, const fs::path& log_path, const fs::path& working_directory,
                   const std::optional<RunAs>& run_as) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const std::string log = log_path.string();
  const std::string cwd = working_directory.string();
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("PostgreSQL cluster: fork: ") + std::strerror(errno));
  if (pid != 0) return pid;

  // The child: only async-signal-safe calls until exec.
  if (::chdir(cwd.c_str()) != 0) _exit(126);
  if (run_as && !become(*run_as)) _exit(126);
  // After the user change, which clears the parent-death signal.
  if (::prctl(PR_SET_PDEATHSIG, SIGQUIT) != 0 || ::getppid() != parent) _exit(126);
  const int null_fd = ::open("/dev/null", O_RDONLY);
  const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
  if (null_fd < 0 || log_fd < 0) _exit(126);
  ::dup2(null_fd, 0);
  ::dup2(log_fd, 1);
  ::dup2(log_fd, 2);
  // The test's own descriptors (sockets, pipes of other children) stay with the test.
  ::close_range(3, ~0U, 0);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  ::execv(args[0], args.data());
  _exit(127);
}

// Waits up to `timeout` for `pid` to exit; true when it did (and is reaped).
bool wait_for_exit(pid_t pid, Clock::duration timeout) {
  const auto deadline = Clock::now() + timeout;
  while (true) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid || (done < 0 && errno == ECHILD)) return true;
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

fs::path postgres_bin_dir(const fs::path& root) {
  fs::path best;
  long best_version = -1;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    const std::string name = entry.path().filename().string();
    char* end = nullptr;
    const long version = std::strtol(name.c_str(), &end, 10);
    if (end == name.c_str() || *end != '\0') continue;
    const fs::path bin = entry.path() / "bin";
    if (version > best_version && fs::exists(bin / "initdb") && fs::exists(bin / "postgres")) {
      best_version = version;
      best = bin;
    }
  }
  if (best.empty()) {
    throw std::runtime_error(
        "PostgreSQL cluster: no server binaries (initdb, postgres) under " + root.string() +
        "/<version>/bin; install the postgresql package (bash packaging/install-deps.sh --with-test-tools)");
  }
  return best;
}

PostgresCluster::PostgresCluster() {
  const fs::path bin_dir = postgres_bin_dir();
  remove_stale_cluster_directories();
  run_as_ = unprivileged_user_if_root();
  directory_ = make_cluster_directory();
  try {
    if (run_as_ && ::chown(directory_.c_str(), run_as_->uid, run_as_->gid) != 0) {
      throw std::runtime_error("PostgreSQL cluster: cannot give " + directory_.string() +
                               " to the unprivileged user: " + std::strerror(errno));
    }
    initialise_data_directory(bin_dir);
    start_server(bin_dir);
    create_database();
  } catch (...) {
    stop_and_remove();
    throw;
  }
}

PostgresCluster::~PostgresCluster() { stop_and_remove(); }

std::string PostgresCluster::conninfo() const {
  std::string uri = "postgresql://";
  uri.append(user_name).append("@127.0.0.1:").append(std::to_string(port_)).append("/").append(database_name);
  return uri;
}

std::string PostgresCluster::server_log() const { return read_whole_file(directory_ / "server.log"); }

void PostgresCluster::initialise_data_directory(const fs::path& bin_dir) {
  ProcessOptions options;
  options.run_as = run_as_;
  options.working_directory = directory_.string();
  // --no-sync: nothing initdb writes needs to survive a power cut.
  const ProcessResult result =
      run_process({(bin_dir / "initdb").string(), "--pgdata", (directory_ / "data").string(), "--username", user_name,
                   "--auth", "trust", "--encoding", "UTF8", "--locale", "C", "--no-sync", "--no-instructions"},
                  options);
  if (result.exit_code != 0) {
    std::string message = "PostgreSQL cluster: initdb exited with ";
    message.append(std::to_string(result.exit_code)).append(":\n").append(result.out).append(result.err);
    throw std::runtime_error(message);
  }
}

void PostgresCluster::start_server(const fs::path& bin_dir) {
  for (int attempt = 1; attempt <= port_attempts; ++attempt) {
    port_ = free_loopback_port();
    const auto log_size_before = server_log().size();
    server_pid_ = spawn_server({(bin_dir / "postgres").string(), "-D", (directory_ / "data").string(),
                                "-k", directory_.string(), "-h", "127.0.0.1", "-p", std::to_string(port_),
                                "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "synchronous_commit=off",
                                "-c", "shared_buffers=16MB"},
                               directory_ / "server.log", directory_, run_as_);
    const std::string conninfo = keyword_conninfo(port_, "postgres");
    const auto deadline = Clock::now() + server_start_timeout;
    while (Clock::now() < deadline) {
      if (PQping(conninfo.c_str()) == PQPING_OK) return;
      int status = 0;
      if (::waitpid(server_pid_, &status, WNOHANG) == server_pid_) {
        server_pid_ = -1;
        const std::string log = server_log().substr(log_size_before);
        // Someone took the port between our pick and the server's bind: pick another.
        if (log.find("could not bind") != std::string::npos && attempt < port_attempts) break;
        throw std::runtime_error("PostgreSQL cluster: the server exited while starting; its log:\n" + log);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (server_pid_ > 0) {
      throw std::runtime_error("PostgreSQL cluster: the server did not accept connections within 30 s; its log:\n" +
                               server_log());
    }
  }
  throw std::runtime_error("PostgreSQL cluster: no free port after several attempts; the server's log:\n" +
                           server_log());
}

void PostgresCluster::create_database() { create_database_named(database_name); }

void PostgresCluster::create_database_named(const std::string& name) const {
  PGconn* connection = PQconnectdb(keyword_conninfo(port_, "postgres").c_str());
  std::string error;
  if (PQstatus(connection) != CONNECTION_OK) {
    error = PQerrorMessage(connection);
  } else {
    PGresult* result = PQexec(connection, ("CREATE DATABASE " + name).c_str());
    if (PQresultStatus(result) != PGRES_COMMAND_OK) error = PQresultErrorMessage(result);
    PQclear(result);
  }
  PQfinish(connection);
  if (!error.empty()) throw std::runtime_error("PostgreSQL cluster: cannot create the database " + name + ": " + error);
}

std::string PostgresCluster::new_database() {
  const std::string name = std::string(database_name) + "_" + std::to_string(++databases_made_);
  create_database_named(name);
  std::string uri = "postgresql://";
  uri.append(user_name).append("@127.0.0.1:").append(std::to_string(port_)).append("/").append(name);
  return uri;
}

void PostgresCluster::stop_and_remove() noexcept {
  if (server_pid_ > 0) {
    // SIGQUIT is `pg_ctl stop -m immediate`: the server ends its backends and exits without a
    // checkpoint. The server is our child, so we signal and reap it directly.
    ::kill(server_pid_, SIGQUIT);
    if (!wait_for_exit(server_pid_, server_stop_timeout)) {
      ::kill(server_pid_, SIGKILL);
      wait_for_exit(server_pid_, server_stop_timeout);
    }
    server_pid_ = -1;
  }
  if (!directory_.empty()) {
    std::error_code ec;
    fs::remove_all(directory_, ec);
  }
}

}  // namespace krino::test
