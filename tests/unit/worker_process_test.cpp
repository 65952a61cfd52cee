// Persistent workers: one reply line per request line, and every way a worker can go wrong (it
// dies, hangs, floods stdout, exits between requests, ignores the end of its input); the pool
// that starts them lazily, reuses them and replaces the broken ones.
#include "krino/core/common/thread_sanitizer.hpp"
#include "krino/core/common/await_callback.hpp"
#include "krino/core/common/io_service.hpp"
#include "krino/core/process/worker_pool.hpp"
#include "krino/core/process/worker_process.hpp"

#include "process_test_support.hpp"

#include <boost/asio/strand.hpp>
#include <boost/test/unit_test.hpp>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <thread>

using namespace krino::core;
using namespace krino::test;
using namespace std::chrono_literals;

namespace {

// Echoes every request line back.
constexpr const char* kEchoWorker = "while IFS= read -r line; do printf '%s\\n' \"$line\"; done";

struct WorkerFixture {
  ProcessLimits limits;
  ScratchDir dir;
  std::mutex warnings_mutex;
  std::vector<std::string> warnings;
  // Last, so it is destroyed first: its thread stops before anything its handlers use goes away.
  IoService io;

  WorkerFixture() {
    limits.timeout = 10s;
    limits.kill_grace = 300ms;
  }

  std::shared_ptr<WorkerProcess> start(const std::string& script) {
    auto started = WorkerProcess::start(boost::asio::make_strand(io.context()), shell(script, dir.path()), limits,
                                        [this](const WorkerExit& exit) {
                                          std::lock_guard lock(warnings_mutex);
                                          warnings.push_back(exit.status.describe() + "|" + exit.stderr_tail);
                                        });
    BOOST_REQUIRE_MESSAGE(started.worker, started.error);
    return started.worker;
  }
  static WorkerReply ask(WorkerProcess& worker, std::string line) {
    return await_callback<WorkerReply>([&](auto done) { worker.request(std::move(line), std::move(done)); });
  }
  // Sends every line at once (ids 1, 2, ...) and waits for all their replies, in the order sent.
  static std::vector<WorkerReply> ask_together(WorkerProcess& worker, const std::vector<std::string>& lines) {
    std::vector<std::promise<WorkerReply>> promises(lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i)
      worker.request(lines[i], [&promises, i](WorkerReply reply) { promises[i].set_value(std::move(reply)); }, i + 1);
    std::vector<WorkerReply> replies;
    for (auto& promise : promises) replies.push_back(promise.get_future().get());
    return replies;
  }
  static WorkerExit shut(WorkerProcess& worker) {
    return await_callback<WorkerExit>([&](auto done) { worker.shutdown(std::move(done)); });
  }
  std::vector<std::string> warnings_seen() {
    std::lock_guard lock(warnings_mutex);
    return warnings;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(worker_process)

BOOST_FIXTURE_TEST_CASE(one_process_answers_request_after_request, WorkerFixture) {
  auto worker = start(kEchoWorker);
  for (int i = 0; i < 50; ++i) {
    WorkerReply reply = ask(*worker, "{\"id\":" + std::to_string(i) + "}\n");
    BOOST_REQUIRE((reply.outcome == WorkerReply::Outcome::answered));
    BOOST_TEST(reply.line == "{\"id\":" + std::to_string(i) + "}");
  }
  BOOST_TEST(worker->usable());
  WorkerExit exit = shut(*worker);
  BOOST_TEST(exit.status.success());  // closing stdin was enough
  BOOST_TEST(!exit.stopped);
  BOOST_TEST(worker->gone());
  BOOST_TEST(no_children());
}

BOOST_FIXTURE_TEST_CASE(a_worker_that_dies_mid_request_says_how, WorkerFixture) {
  auto worker = start("read -r line; echo 'Traceback: boom' >&2; exit 4");
  WorkerReply reply = ask(*worker, "{}\n");
  BOOST_TEST((reply.outcome == WorkerReply::Outcome::died));
  BOOST_TEST(reply.exit.status.exit_code() == 4);
  BOOST_TEST(reply.exit.stderr_tail == "Traceback: boom\n");
  BOOST_TEST(!worker->usable());
  BOOST_TEST(warnings_seen().empty());  // the item error tells it; no second report
}

BOOST_FIXTURE_TEST_CASE(a_reply_written_just_before_exiting_still_counts, WorkerFixture) {
  auto worker = start("read -r line; echo '{\"id\":1}'; exit 0");
  WorkerReply reply = ask(*worker, "{}\n");
  BOOST_TEST((reply.outcome == WorkerReply::Outcome::answered));
  BOOST_TEST(reply.line == "{\"id\":1}");
  // ... and its exit between requests is reported once, not blamed on the next item.
  for (int i = 0; i < 200 && worker->usable(); ++i) std::this_thread::sleep_for(10ms);
  BOOST_TEST(!worker->usable());
  for (int i = 0; i < 200 && warnings_seen().empty(); ++i) std::this_thread::sleep_for(10ms);
  BOOST_TEST(warnings_seen().size() == 1u);
}

BOOST_FIXTURE_TEST_CASE(a_worker_that_hangs_is_stopped_at_the_timeout, WorkerFixture) {
  limits.timeout = 300ms;
  auto worker = start("read -r line; sleep 30 & echo $! > child.pid; wait");
  const auto started = std::chrono::steady_clock::now();
  WorkerReply reply = ask(*worker, "{}\n");
  BOOST_TEST((reply.outcome == WorkerReply::Outcome::timed_out));
  BOOST_TEST(reply.exit.status.signal() == SIGTERM);
  BOOST_TEST(reply.exit.stopped);
  BOOST_TEST((std::chrono::steady_clock::now() - started < 5s));
  BOOST_TEST(gone_within(pid_from_file(dir, "child.pid"), 2s));
}

BOOST_FIXTURE_TEST_CASE(a_reply_without_end_is_bounded, WorkerFixture) {
  limits.max_output_bytes = 1u << 20;
  auto worker = start("read -r line; yes | tr -d '\\n'");
  WorkerReply reply = ask(*worker, "{}\n");
  BOOST_TEST((reply.outcome == WorkerReply::Outcome::reply_too_long));
  BOOST_TEST(!worker->usable());
}

BOOST_FIXTURE_TEST_CASE(cancellation_stops_a_busy_worker, WorkerFixture) {
  std::atomic<bool> cancelled{false};
  limits.cancelled = [&] { return cancelled.load(); };
  limits.cancellation_poll = 20ms;
  auto worker = start("read -r line; sleep 30");
  std::thread later([&] {
    std::this_thread::sleep_for(150ms);
    cancelled = true;
  });
  WorkerReply reply = ask(*worker, "{}\n");
  later.join();
  BOOST_TEST((reply.outcome == WorkerReply::Outcome::cancelled));
}

BOOST_FIXTURE_TEST_CASE(a_worker_that_ignores_the_end_of_its_input_is_stopped_at_shutdown, WorkerFixture) {
  auto worker = start("trap '' TERM; exec sleep 30");
  const auto started = std::chrono::steady_clock::now();
  WorkerExit exit = shut(*worker);
  BOOST_TEST(exit.stopped);
  BOOST_TEST(exit.status.signal() == SIGKILL);  // it ignored SIGTERM too
  BOOST_TEST((std::chrono::steady_clock::now() - started < 5s));
}

BOOST_FIXTURE_TEST_CASE(a_request_to_a_worker_that_already_exited_is_not_sent, WorkerFixture) {
  // Whether or not krino has handled the exit yet: the request is never written, so the item is
  // not blamed for the worker's death (the exit is reported as an idle one).
  auto worker = start("exit 2");
  for (int i = 0; i < 200 && !worker->gone(); ++i) std::this_thread::sleep_for(10ms);
  BOOST_REQUIRE(worker->gone());
  BOOST_TEST((ask(*worker, "{}\n").outcome == WorkerReply::Outcome::not_sent));
  BOOST_TEST(warnings_seen().size() == 1u);
  BOOST_TEST(warnings_seen().front() == "exit status 2|");
  auto unhandled = start("exit 3");
  BOOST_TEST(gone_within(unhandled->pid(), 2s));  // a zombie, perhaps not yet reaped by krino
  BOOST_TEST((ask(*unhandled, "{}\n").outcome == WorkerReply::Outcome::not_sent));
}

BOOST_FIXTURE_TEST_CASE(requests_a_dying_worker_never_read_are_not_sent_even_mid_write, WorkerFixture) {
  // It reads one request (the shell reads a line byte by byte, no further) and dies while krino is
  // still writing the others: more than the pipe holds, so a write is in progress at its exit. A
  // child of the worker keeps the pipe open (through descriptor 3: the shell gives a background
  // command /dev/null as its stdin), so that write goes on after the exit instead of failing at
  // once. Only the request it read is its failure; every other one is not_sent, to go to another
  // worker, and none is taken for read (interrupted) because the unfinished write was counted whole.
  limits.drain_after_exit = 200ms;
  auto worker = start("exec 3<&0; sleep 3 <&3 & read -r line; sleep 0.3; exit 5");
  std::vector<std::string> lines;
  for (int i = 1; i <= 60; ++i)  // 2.4 MB: more than the pipe holds (krino asks for 1 MiB)
    lines.push_back("{\"id\":" + std::to_string(i) + ",\"pad\":\"" + std::string(40000, 'x') + "\"}\n");
  const std::vector<WorkerReply> replies = ask_together(*worker, lines);
  BOOST_REQUIRE(replies.size() == lines.size());
  BOOST_TEST((replies[0].outcome == WorkerReply::Outcome::died));
  BOOST_TEST(replies[0].exit.status.exit_code() == 5);
  for (std::size_t i = 1; i < replies.size(); ++i)
    BOOST_TEST((replies[i].outcome == WorkerReply::Outcome::not_sent), "request " << i + 1 << ": outcome "
                                                                               << static_cast<int>(replies[i].outcome));
}

BOOST_FIXTURE_TEST_CASE(pipelined_requests_take_their_answers_by_id_in_any_order, WorkerFixture) {
  // Reads three requests, then answers them last first.
  auto worker = start("read -r a; read -r b; read -r c; printf '%s\\n%s\\n%s\\n' \"$c\" \"$b\" \"$a\"; cat");
  auto replies = ask_together(*worker, {"{\"id\":1,\"n\":\"a\"}\n", "{\"id\":2,\"n\":\"b\"}\n", "{\"id\": 3 ,\"n\":\"c\"}\n"});
  BOOST_REQUIRE(replies.size() == 3u);
  BOOST_TEST(replies[0].line == "{\"id\":1,\"n\":\"a\"}");
  BOOST_TEST(replies[1].line == "{\"id\":2,\"n\":\"b\"}");
  BOOST_TEST(replies[2].line == "{\"id\": 3 ,\"n\":\"c\"}");
  BOOST_TEST(worker->usable());
  BOOST_TEST(shut(*worker).status.success());
}

BOOST_FIXTURE_TEST_CASE(a_line_written_before_it_is_asked_for_answers_the_next_request, WorkerFixture) {
  // A handshake: the worker speaks first, and the request that reads it writes nothing.
  auto worker = start("echo '{\"hello\":1}'; cat");
  std::this_thread::sleep_for(200ms);
  WorkerReply reply = ask(*worker, "");
  BOOST_TEST((reply.outcome == WorkerReply::Outcome::answered));
  BOOST_TEST(reply.line == "{\"hello\":1}");
}

BOOST_AUTO_TEST_CASE(reply_ids_are_read_quickly_or_by_parsing) {
  BOOST_TEST(line_reply_id("{\"id\":17,\"result\":{}}").value() == 17u);
  BOOST_TEST(line_reply_id(" { \"id\" : 5 }").value() == 5u);
  BOOST_TEST(line_reply_id("{\"result\":{\"id\":3},\"id\":9}").value() == 9u);  // not first: parsed
  BOOST_TEST(!line_reply_id("{\"id\":-1}"));
  BOOST_TEST(!line_reply_id("{\"id\":\"7\"}"));
  BOOST_TEST(!line_reply_id("not json"));
  BOOST_TEST(!line_reply_id("{\"configured\":true}"));
}

BOOST_FIXTURE_TEST_CASE(a_worker_that_dies_with_requests_in_flight_blames_only_the_oldest, WorkerFixture) {
  // It reads two requests and dies: the first was the one it was on; the second it had read (so it
  // may be retried elsewhere); the third it never read.
  auto worker = start("read -r a; read -r b; echo 'dying' >&2; kill -SEGV $$");
  auto replies = ask_together(*worker, {"{\"id\":1}\n", "{\"id\":2}\n", "{\"id\":3}\n"});
  using O = WorkerReply::Outcome;
  BOOST_TEST((replies[0].outcome == O::died));
  BOOST_TEST(replies[0].exit.status.signal() == SIGSEGV);
  BOOST_TEST(replies[0].exit.stderr_tail == "dying\n");
  BOOST_TEST((replies[1].outcome == O::interrupted));
  BOOST_TEST(replies[1].exit.status.signal() == SIGSEGV);
  BOOST_TEST((replies[2].outcome == O::not_sent));
  BOOST_TEST(warnings_seen().empty());  // the first item's error tells it
}

BOOST_FIXTURE_TEST_CASE(an_answer_written_after_stdin_is_closed_still_reaches_its_request, WorkerFixture) {
  // The worker reads the first request and closes its stdin while krino is still writing a second
  // one too large for the pipe (the write fails with EPIPE); only then does it answer the first and
  // die. That answer counts (it used to be dropped, and the answered request blamed), and the
  // second, of which it read nothing, may go to another worker.
  auto worker = start("IFS= read -r a; sleep 0.1; exec 0<&-; sleep 0.2; printf '%s\\n' '{\"id\":1,\"ok\":true}'; kill -SEGV $$");
  const std::string large = "{\"id\":2,\"pad\":\"" + std::string(1 << 20, 'x') + "\"}\n";
  auto replies = ask_together(*worker, {"{\"id\":1}\n", large});
  using O = WorkerReply::Outcome;
  BOOST_TEST((replies[0].outcome == O::answered));
  BOOST_TEST(replies[0].line == "{\"id\":1,\"ok\":true}");
  BOOST_TEST((replies[1].outcome == O::not_sent), static_cast<int>(replies[1].outcome));
}

BOOST_FIXTURE_TEST_CASE(each_pipelined_request_keeps_its_own_timeout, WorkerFixture) {
  limits.timeout = 400ms;
  // Answers the first at once, then reads the second and hangs on it.
  auto worker = start("read -r a; printf '%s\\n' \"$a\"; read -r b; read -r c; sleep 30");
  const auto started = std::chrono::steady_clock::now();
  auto replies = ask_together(*worker, {"{\"id\":1}\n", "{\"id\":2}\n", "{\"id\":3}\n"});
  using O = WorkerReply::Outcome;
  BOOST_TEST((replies[0].outcome == O::answered));
  BOOST_TEST((replies[1].outcome == O::timed_out));
  BOOST_TEST(replies[1].exit.stopped);
  BOOST_TEST((replies[2].outcome == O::interrupted));
  BOOST_TEST((std::chrono::steady_clock::now() - started < 5s));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(worker_pool)

BOOST_FIXTURE_TEST_CASE(workers_start_when_needed_and_are_reused, WorkerFixture) {
  WorkerPool pool(io.context(), shell(kEchoWorker, dir.path()), limits, 4, {});
  for (int i = 0; i < 20; ++i) {
    WorkerPool::Lease lease = pool.acquire();
    BOOST_REQUIRE(lease.worker);
    BOOST_TEST((ask(*lease.worker, "{}\n").outcome == WorkerReply::Outcome::answered));
    pool.release(lease.worker);
  }
  BOOST_TEST(pool.started_count() == 1u);  // one item at a time needs one worker
  pool.shutdown();
  BOOST_TEST(no_children());
}

BOOST_FIXTURE_TEST_CASE(concurrent_requests_share_at_most_max_workers_without_holding_threads, WorkerFixture) {
  // 40 requests of 200 ms each from 2 threads through 8 workers: suspended waits, so about
  // 40 / 8 * 200 ms, where blocked threads would need 40 / 2 * 200 ms = 4 s.
  WorkerPool pool(io.context(), shell("while IFS= read -r line; do sleep 0.2; echo \"$$\"; done", dir.path()), limits,
                  8, {});
  std::mutex mutex;
  std::set<std::string> pids;
  std::atomic<int> answered{0};
  const auto started = std::chrono::steady_clock::now();
  tbb::task_arena arena(2);
  arena.execute([&] {
    tbb::parallel_for(0, 40, [&](int) {
      WorkerPool::Lease lease = pool.acquire();
      if (!lease.worker) return;
      WorkerReply reply = ask(*lease.worker, "{}\n");
      pool.release(lease.worker);
      if (reply.outcome != WorkerReply::Outcome::answered) return;
      ++answered;
      std::lock_guard lock(mutex);
      pids.insert(reply.line);
    });
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  BOOST_TEST(answered.load() == 40);
  BOOST_TEST(pids.size() <= 8u);
  BOOST_TEST(pool.started_count() <= 8u);
  // Under a sanitizer the waits block their thread (await_callback): only the answers count.
  if (krino::core::kWaitsSuspendTasks) BOOST_TEST(seconds < 3.5);
}

BOOST_FIXTURE_TEST_CASE(a_broken_worker_is_replaced, WorkerFixture) {
  // Every worker dies on its second request.
  WorkerPool pool(io.context(), shell("read -r line; echo \"$$\"; read -r line; exit 9", dir.path()), limits, 1, {});
  std::vector<WorkerReply::Outcome> outcomes;
  for (int i = 0; i < 4; ++i) {
    WorkerPool::Lease lease = pool.acquire();
    BOOST_REQUIRE(lease.worker);
    outcomes.push_back(ask(*lease.worker, "{}\n").outcome);
    pool.release(lease.worker);
  }
  using O = WorkerReply::Outcome;
  BOOST_TEST((outcomes == std::vector<O>{O::answered, O::died, O::answered, O::died}));
  BOOST_TEST(pool.started_count() == 2u);
}

BOOST_FIXTURE_TEST_CASE(a_worker_takes_up_to_requests_per_worker_leases_at_once, WorkerFixture) {
  WorkerPool pool(io.context(), shell(kEchoWorker, dir.path()), limits, 2, {});
  pool.set_requests_per_worker(3);
  std::vector<WorkerPool::Lease> leases;
  for (int i = 0; i < 6; ++i) leases.push_back(pool.acquire());  // two workers, three each
  BOOST_TEST(pool.started_count() == 2u);
  std::map<WorkerProcess*, int> per_worker;
  for (auto& lease : leases) {
    BOOST_REQUIRE(lease.worker);
    ++per_worker[lease.worker.get()];
  }
  BOOST_TEST(per_worker.size() == 2u);
  for (auto& [worker, count] : per_worker) BOOST_TEST(count == 3);
  // Full: the seventh waits until a lease comes back.
  std::promise<WorkerPool::Lease> seventh;
  std::thread waiting([&] { seventh.set_value(pool.acquire()); });
  auto later = seventh.get_future();
  BOOST_TEST((later.wait_for(200ms) == std::future_status::timeout));
  pool.release(leases[0].worker);
  BOOST_TEST((later.wait_for(5s) == std::future_status::ready));
  WorkerPool::Lease got = later.get();
  waiting.join();
  BOOST_TEST(got.worker == leases[0].worker);
  pool.release(got.worker);
  for (std::size_t i = 1; i < leases.size(); ++i) pool.release(leases[i].worker);
  pool.shutdown();
}

BOOST_FIXTURE_TEST_CASE(a_program_that_cannot_start_gives_its_reason_to_every_lease, WorkerFixture) {
  WorkerPool pool(io.context(), ProcessSpec{"/nonexistent/worker", {"worker"}, dir.path(), {}}, limits, 2, {});
  for (int i = 0; i < 3; ++i) {
    WorkerPool::Lease lease = pool.acquire();
    BOOST_TEST(!lease.worker);
    BOOST_TEST(lease.error.find("No such file or directory") != std::string::npos, lease.error);
  }
}

BOOST_AUTO_TEST_SUITE_END()
