// The process machinery under the exec task: ChildProcess (spawn, process group, signals, descriptors,
// reaping) and ProcessRun (one call: stdin, bounded stdout, stderr tail, timeout, cancellation).
#include "krino/core/common/await_callback.hpp"
#include "krino/core/common/io_service.hpp"
#include "krino/core/process/child_process.hpp"
#include "krino/core/process/process_run.hpp"

#include "process_test_support.hpp"

#include <boost/asio/strand.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <fcntl.h>
#include <pthread.h>

using namespace krino::core;
using namespace krino::test;
using namespace std::chrono_literals;

namespace {

struct ProcessFixture {
  ProcessLimits limits;
  ScratchDir dir;
  // Last, so it is destroyed first: its thread stops before anything its handlers use goes away.
  IoService io;

  ProcessFixture() {
    limits.timeout = 10s;
    limits.kill_grace = 200ms;
  }

  ProcessRunResult run(const ProcessSpec& spec, std::string input = {}, const std::vector<std::string>& extra = {}) {
    const auto started = ProcessRun::Clock::now();
    ChildProcess::Spawned spawned = ChildProcess::spawn(boost::asio::make_strand(io.context()), spec, extra);
    BOOST_REQUIRE_MESSAGE(spawned.process, spawned.error);
    return await_callback<ProcessRunResult>([&](auto done) {
      ProcessRun::start(std::move(spawned.process), std::move(input), limits, started, std::move(done));
    });
  }
  ProcessRunResult sh(const std::string& script, std::string input = {}) { return run(shell(script, dir.path()), std::move(input)); }
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(process_run)

BOOST_FIXTURE_TEST_CASE(stdin_reaches_the_program_and_stdout_comes_back, ProcessFixture) {
  ProcessRunResult r = sh("cat; echo done >&2", "{\"inputs\":{\"input\":1}}\n");
  BOOST_TEST((r.ending == ProcessRunResult::Ending::exited));
  BOOST_TEST(r.status.success());
  BOOST_TEST(r.output == "{\"inputs\":{\"input\":1}}\n");
  BOOST_TEST(r.stderr_tail == "done\n");
  BOOST_TEST(!r.stderr_truncated);
  BOOST_TEST(r.elapsed_ms > 0.0);
  BOOST_TEST(no_children());
}

BOOST_FIXTURE_TEST_CASE(exit_statuses_and_signals_are_told_apart, ProcessFixture) {
  ProcessRunResult exited = sh("exit 3");
  BOOST_TEST(exited.status.exited());
  BOOST_TEST(exited.status.exit_code() == 3);
  BOOST_TEST(exited.status.describe() == "exit status 3");
  ProcessRunResult killed = sh("kill -SEGV $$");
  BOOST_TEST(killed.status.signalled());
  BOOST_TEST(killed.status.signal() == SIGSEGV);
  BOOST_TEST(killed.status.describe() == "killed by signal 11 (SIGSEGV)");
}

BOOST_FIXTURE_TEST_CASE(a_program_that_ignores_its_input_does_not_break_krino_with_sigpipe, ProcessFixture) {
  // 4 MB into a pipe nobody reads: the write fails with EPIPE on the I/O thread, which blocks
  // SIGPIPE; without that this test process would die.
  ProcessRunResult r = sh("echo '{}'", std::string(4u << 20, 'x'));
  BOOST_TEST(r.status.success());
  BOOST_TEST(r.output == "{}\n");
}

BOOST_FIXTURE_TEST_CASE(the_child_starts_in_its_own_group_with_clean_signals, ProcessFixture) {
  // The parent thread blocks SIGINT and SIGTERM (as krino's main does) and SIGPIPE is ignored:
  // none of that may reach the child, or a timeout's SIGTERM would do nothing.
  sigset_t blocked, previous;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGINT);
  sigaddset(&blocked, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &blocked, &previous);
  struct sigaction ignore{}, old_pipe{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &old_pipe);
  ProcessRunResult status = run(ProcessSpec{"/bin/cat", {"cat", "/proc/self/status"}, dir.path(), current_environment()});
  ProcessRunResult group = sh("read -r stat < /proc/$$/stat; set -- $stat; echo \"$1 $5\"");
  sigaction(SIGPIPE, &old_pipe, nullptr);
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);

  auto mask = [&](const std::string& name) {
    const auto at = status.output.find(name + ":\t");
    BOOST_REQUIRE(at != std::string::npos);
    return std::stoull(status.output.substr(at + name.size() + 2, 16), nullptr, 16);
  };
  BOOST_TEST(mask("SigBlk") == 0u, status.output);
  // Signals 1 to 31 (glibc keeps 32 and 33 to itself; whatever started the test may ignore them).
  BOOST_TEST((mask("SigIgn") & 0x7fffffffu) == 0u, status.output);
  std::istringstream ids(group.output);
  long pid = 0, pgid = -1;
  ids >> pid >> pgid;
  BOOST_TEST(pid == pgid);
  BOOST_TEST(pgid != static_cast<long>(::getpgrp()));
}

BOOST_FIXTURE_TEST_CASE(no_descriptor_of_krino_leaks_into_the_child, ProcessFixture) {
  // A descriptor opened without O_CLOEXEC (as a careless plugin might) at a number the child would
  // not otherwise use.
  const int leaked = ::open("/dev/null", O_RDONLY);
  BOOST_REQUIRE(leaked >= 0);
  BOOST_REQUIRE(::dup2(leaked, 200) == 200);
  ProcessRunResult r = run(ProcessSpec{"/bin/ls", {"ls", "/proc/self/fd"}, dir.path(), current_environment()});
  ::close(200);
  ::close(leaked);
  std::istringstream listed(r.output);
  std::vector<int> fds;
  for (int fd; listed >> fd;) fds.push_back(fd);
  // 0, 1, 2 and the directory ls itself opened to list them.
  BOOST_TEST(fds.size() <= 4u, r.output);
  const bool has_200 = std::find(fds.begin(), fds.end(), 200) != fds.end();
  const bool has_leaked = leaked > 3 && std::find(fds.begin(), fds.end(), leaked) != fds.end();
  BOOST_TEST(!has_200, r.output);
  BOOST_TEST(!has_leaked, r.output);
}

BOOST_FIXTURE_TEST_CASE(working_directory_and_environment_are_the_specs, ProcessFixture) {
  ProcessSpec spec = shell("pwd; echo \"$KRINO_TEST_VALUE|$KRINO_ITEM_INDEX\"", dir.path());
  spec.environment.push_back("KRINO_TEST_VALUE=forty two");
  ProcessRunResult r = run(spec, {}, {"KRINO_ITEM_INDEX=7"});
  BOOST_TEST(r.output == std::filesystem::canonical(dir.path()).string() + "\nforty two|7\n");
}

BOOST_FIXTURE_TEST_CASE(a_program_that_cannot_start_is_an_error_not_a_crash, ProcessFixture) {
  auto missing = ChildProcess::spawn(boost::asio::make_strand(io.context()),
                                     ProcessSpec{"/nonexistent/agent", {"agent"}, dir.path(), {}});
  BOOST_TEST(!missing.process);
  BOOST_TEST(missing.error.find("could not start '/nonexistent/agent'") != std::string::npos, missing.error);
  BOOST_TEST(missing.error.find("No such file or directory") != std::string::npos, missing.error);
  auto bad_directory = ChildProcess::spawn(boost::asio::make_strand(io.context()),
                                           ProcessSpec{"/bin/true", {"true"}, dir.path() / "missing", {}});
  BOOST_TEST(!bad_directory.process);
  BOOST_TEST(no_children());
}

BOOST_FIXTURE_TEST_CASE(a_timeout_stops_the_whole_group, ProcessFixture) {
  limits.timeout = 300ms;
  const auto start = std::chrono::steady_clock::now();
  ProcessRunResult r = sh("sleep 30 & echo $! > background.pid; sleep 30");
  BOOST_TEST((r.ending == ProcessRunResult::Ending::timed_out));
  BOOST_TEST(r.status.signalled());
  BOOST_TEST(r.status.signal() == SIGTERM);
  BOOST_TEST(seconds_since(start) < 5.0);
  const pid_t background = pid_from_file(dir, "background.pid");
  BOOST_REQUIRE(background > 0);
  BOOST_TEST(gone_within(background, 2s));
  BOOST_TEST(no_children());
}

BOOST_FIXTURE_TEST_CASE(a_group_that_ignores_sigterm_is_killed_after_the_grace, ProcessFixture) {
  limits.timeout = 200ms;
  limits.kill_grace = 300ms;
  const auto start = std::chrono::steady_clock::now();
  ProcessRunResult r = sh("trap '' TERM; sleep 30 & echo $! > background.pid; wait");
  const double took = seconds_since(start);
  BOOST_TEST((r.ending == ProcessRunResult::Ending::timed_out));
  BOOST_TEST(r.status.signalled());
  BOOST_TEST(r.status.signal() == SIGKILL);
  BOOST_TEST(took >= 0.45);
  BOOST_TEST(took < 5.0);
  BOOST_TEST(gone_within(pid_from_file(dir, "background.pid"), 2s));
}

BOOST_FIXTURE_TEST_CASE(what_the_leader_leaves_behind_dies_with_it, ProcessFixture) {
  ProcessRunResult r = sh("sleep 30 & echo $! > background.pid; exit 0");
  BOOST_TEST(r.status.success());
  BOOST_TEST(gone_within(pid_from_file(dir, "background.pid"), 2s));
}

BOOST_FIXTURE_TEST_CASE(output_beyond_the_limit_stops_the_program, ProcessFixture) {
  limits.max_output_bytes = 1u << 20;
  ProcessRunResult r = sh("yes");
  BOOST_TEST((r.ending == ProcessRunResult::Ending::output_too_large));
  BOOST_TEST(r.output.size() == limits.max_output_bytes);
  BOOST_TEST(no_children());
}

BOOST_FIXTURE_TEST_CASE(only_the_end_of_stderr_is_kept, ProcessFixture) {
  ProcessRunResult r = sh("head -c 3000000 /dev/zero | tr '\\0' x >&2; echo ' the end' >&2; exit 1");
  BOOST_TEST(r.status.exit_code() == 1);
  BOOST_TEST(r.stderr_tail.size() == limits.stderr_tail_bytes);
  BOOST_TEST(r.stderr_truncated);
  BOOST_TEST(r.stderr_tail.substr(r.stderr_tail.size() - 9) == " the end\n");
}

BOOST_FIXTURE_TEST_CASE(cancellation_stops_a_running_program, ProcessFixture) {
  std::atomic<bool> cancelled{false};
  limits.cancelled = [&] { return cancelled.load(); };
  limits.cancellation_poll = 20ms;
  std::thread later([&] {
    std::this_thread::sleep_for(200ms);
    cancelled = true;
  });
  const auto start = std::chrono::steady_clock::now();
  ProcessRunResult r = sh("sleep 30");
  later.join();
  BOOST_TEST((r.ending == ProcessRunResult::Ending::cancelled));
  BOOST_TEST(seconds_since(start) < 5.0);
}

BOOST_FIXTURE_TEST_CASE(a_descendant_that_left_the_group_cannot_hold_the_call_open, ProcessFixture) {
  // setsid escapes the group kill and keeps stdout open: the call ends after the drain time.
  limits.drain_after_exit = 200ms;
  const auto start = std::chrono::steady_clock::now();
  ProcessRunResult r = sh("setsid sleep 30 & echo $! > escaped.pid; echo '{}'");
  BOOST_TEST(r.status.success());
  BOOST_TEST(r.output == "{}\n");
  BOOST_TEST(seconds_since(start) < 5.0);
  const pid_t escaped = pid_from_file(dir, "escaped.pid");
  if (escaped > 0) ::kill(escaped, SIGKILL);
}

BOOST_FIXTURE_TEST_CASE(a_dropped_child_is_killed_and_reaped, ProcessFixture) {
  {
    auto spawned = ChildProcess::spawn(boost::asio::make_strand(io.context()), shell("sleep 30"));
    BOOST_REQUIRE(spawned.process);
    BOOST_TEST(process_alive(spawned.process->pid()));
  }
  BOOST_TEST(no_children());
}

BOOST_AUTO_TEST_SUITE_END()
