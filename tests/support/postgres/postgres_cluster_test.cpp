// The throwaway PostgreSQL cluster of the server tests: it starts, takes SQL over libpq with
// durability off, and leaves neither a server nor a directory behind, even when its test process dies.
#include "postgres_cluster.hpp"
#include "scratch_directory.hpp"

#include <boost/test/unit_test.hpp>
#include <libpq-fe.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>

namespace {

using krino::test::PostgresCluster;

struct ConnectionCloser {
  void operator()(PGconn* connection) const { PQfinish(connection); }
};
using Connection = std::unique_ptr<PGconn, ConnectionCloser>;

// The rows of one query as text, or the error.
std::string query_text(PGconn* connection, const char* sql) {
  PGresult* result = PQexec(connection, sql);
  std::string text;
  const auto status = PQresultStatus(result);
  if (status == PGRES_TUPLES_OK) {
    for (int row = 0; row < PQntuples(result); ++row) {
      for (int column = 0; column < PQnfields(result); ++column) {
        if (column > 0) text.append("|");
        text.append(PQgetvalue(result, row, column));
      }
      text.append("\n");
    }
  } else if (status != PGRES_COMMAND_OK) {
    text = std::string("error: ") + PQresultErrorMessage(result);
  }
  PQclear(result);
  return text;
}

// Whether something accepts TCP connections on 127.0.0.1:port.
bool port_accepts_connections(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  BOOST_REQUIRE(fd >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  const bool connected = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
  ::close(fd);
  return connected;
}

bool port_closes_within(int port, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (port_accepts_connections(port)) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(postgres_cluster)

BOOST_AUTO_TEST_CASE(takes_sql_without_durability_and_leaves_nothing_behind) {
  const auto started = std::chrono::steady_clock::now();
  std::optional<PostgresCluster> cluster(std::in_place);
  const auto ready = std::chrono::steady_clock::now();
  const int port = cluster->port();
  const std::filesystem::path directory = cluster->directory();
  BOOST_TEST(cluster->conninfo() == "postgresql://krino@127.0.0.1:" + std::to_string(port) + "/krino_test");
  BOOST_TEST(std::filesystem::is_directory(directory / "data"));
  {
    Connection connection(PQconnectdb(cluster->conninfo().c_str()));
    BOOST_REQUIRE_MESSAGE(PQstatus(connection.get()) == CONNECTION_OK,
                          PQerrorMessage(connection.get()) << "\nserver log:\n" << cluster->server_log());
    BOOST_TEST(query_text(connection.get(), "SELECT current_database(), current_user") == "krino_test|krino\n");
    BOOST_TEST(query_text(connection.get(), "CREATE TABLE runs (id bigint PRIMARY KEY, name text NOT NULL)") == "");
    BOOST_TEST(query_text(connection.get(), "INSERT INTO runs VALUES (7, 'naïve ☃ run')") == "");
    BOOST_TEST(query_text(connection.get(), "SELECT id, name FROM runs") == "7|naïve ☃ run\n");
    BOOST_TEST(query_text(connection.get(), "SHOW fsync") == "off\n");
    BOOST_TEST(query_text(connection.get(), "SHOW synchronous_commit") == "off\n");
    BOOST_TEST(query_text(connection.get(), "SHOW server_encoding") == "UTF8\n");
    // As root, the server runs as the unprivileged user; otherwise as this one.
    const std::string backend = query_text(connection.get(), "SELECT pg_backend_pid()");
    struct stat backend_status {};
    BOOST_REQUIRE(::stat(("/proc/" + backend.substr(0, backend.size() - 1)).c_str(), &backend_status) == 0);
    const auto run_as = krino::test::unprivileged_user_if_root();
    BOOST_TEST(backend_status.st_uid == (run_as ? run_as->uid : ::geteuid()));
  }
  BOOST_TEST(port_accepts_connections(port));

  const auto stopping = std::chrono::steady_clock::now();
  cluster.reset();
  const auto stopped = std::chrono::steady_clock::now();
  using std::chrono::duration_cast;
  using std::chrono::milliseconds;
  BOOST_TEST_MESSAGE("PostgreSQL cluster: start " << duration_cast<milliseconds>(ready - started).count()
                     << " ms, stop " << duration_cast<milliseconds>(stopped - stopping).count() << " ms");

  BOOST_TEST(!port_accepts_connections(port));
  Connection after(PQconnectdb(("host=127.0.0.1 connect_timeout=2 port=" + std::to_string(port)).c_str()));
  BOOST_TEST(PQstatus(after.get()) != CONNECTION_OK);
  BOOST_TEST(!std::filesystem::exists(directory));
}

BOOST_AUTO_TEST_CASE(two_clusters_run_side_by_side) {
  PostgresCluster first;
  PostgresCluster second;
  BOOST_TEST(first.port() != second.port());
  BOOST_TEST(first.directory() != second.directory());
  Connection a(PQconnectdb(first.conninfo().c_str()));
  Connection b(PQconnectdb(second.conninfo().c_str()));
  BOOST_REQUIRE(PQstatus(a.get()) == CONNECTION_OK);
  BOOST_REQUIRE(PQstatus(b.get()) == CONNECTION_OK);
  BOOST_TEST(query_text(a.get(), "CREATE TABLE only_in_first (x int)") == "");
  BOOST_TEST(query_text(b.get(), "SELECT count(*) FROM pg_tables WHERE tablename = 'only_in_first'") == "0\n");
}

// A test process killed outright (ctest's timeout, a crash) runs no destructor: the kernel's
// parent-death signal stops its server, and the next cluster removes its directory.
BOOST_AUTO_TEST_CASE(a_killed_test_process_leaves_no_server_and_its_directory_goes_next_time) {
  int report[2];
  BOOST_REQUIRE(::pipe(report) == 0);
  const pid_t child = ::fork();
  BOOST_REQUIRE(child >= 0);
  if (child == 0) {
    ::close(report[0]);
    try {
      PostgresCluster cluster;
      const std::string line = std::to_string(cluster.port()) + " " + cluster.directory().string() + "\n";
      if (::write(report[1], line.data(), line.size()) < 0) _exit(2);
      ::pause();
    } catch (...) {
    }
    _exit(1);
  }
  ::close(report[1]);
  std::string line;
  char buffer[512];
  for (ssize_t n; (n = ::read(report[0], buffer, sizeof(buffer))) > 0;) {
    line.append(buffer, static_cast<size_t>(n));
    if (line.find('\n') != std::string::npos) break;
  }
  ::close(report[0]);
  BOOST_REQUIRE_MESSAGE(line.find(' ') != std::string::npos, "the child made no cluster");
  const int port = std::stoi(line.substr(0, line.find(' ')));
  const std::filesystem::path directory = line.substr(line.find(' ') + 1, line.find('\n') - line.find(' ') - 1);
  BOOST_TEST(port_accepts_connections(port));

  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  BOOST_TEST(port_closes_within(port, std::chrono::milliseconds(10000)));
  BOOST_TEST(std::filesystem::exists(directory));  // nobody removed it yet

  PostgresCluster next;
  BOOST_TEST(!std::filesystem::exists(directory));
}

BOOST_AUTO_TEST_CASE(uses_the_highest_installed_version_and_says_what_to_install_without_one) {
  krino::test::ScratchDirectory root;
  BOOST_CHECK_EXCEPTION(krino::test::postgres_bin_dir(root.path()), std::runtime_error, [](const std::runtime_error& e) {
    return std::string(e.what()).find("install the postgresql package") != std::string::npos;
  });
  const auto install = [&](const std::string& version, std::initializer_list<const char*> programs) {
    std::filesystem::create_directories(root / version / "bin");
    for (const char* program : programs) std::ofstream(root / version / "bin" / program) << "";
  };
  install("13", {"initdb", "postgres"});
  install("15", {"initdb", "postgres"});
  install("16", {"initdb"});  // a client-only install: no server
  install("notes", {"initdb", "postgres"});
  BOOST_TEST(krino::test::postgres_bin_dir(root.path()) == root / "15" / "bin");
}

BOOST_AUTO_TEST_SUITE_END()
