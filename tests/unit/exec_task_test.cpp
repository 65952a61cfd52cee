// The exec task in process: its options (every mistake is a configuration error naming the key),
// and run() over real programs: outputs, metrics, errors with their cause, worker replacement, and
// suspension (items waiting on programs hold no TBB thread).
#include "krino/core/common/thread_sanitizer.hpp"
#include "krino/core/common/error.hpp"
#include "krino/core/common/io_service.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/usage/price_table.hpp"
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/process/descriptor_limit.hpp"
#include "krino/core/task/exec_task.hpp"
#include "krino/core/task/task_factory.hpp"

#include "process_test_support.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <set>
#include <sys/resource.h>

using namespace krino::core;
using namespace krino::test;
namespace json = boost::json;

namespace {

struct ExecFixture {
  Cancellation cancellation;
  HostServices host{cancellation, nullptr};
  PluginRegistry registry;
  PriceTable prices = PriceTable::from_json(
      json::parse(R"({"small":{"input_per_million":1.0,"output_per_million":2.0}})").as_object());
  ScratchDir dir;
  // Last, so it is destroyed first: its thread stops before anything its handlers use goes away.
  IoService io;

  TaskEnvironment environment(uint32_t parallelism = 4) { return TaskEnvironment{host, registry, io, prices, parallelism}; }

  std::unique_ptr<Task> task(const std::string& options_json, uint32_t parallelism = 4) {
    TaskConfig config;
    config.kind = "exec";
    config.options = json::parse(options_json).as_object();
    config.base_dir = dir.path();
    return make_task(config, environment(parallelism));
  }

  std::string config_error_of(const std::string& options_json) {
    try {
      task(options_json);
    } catch (const KrinoError& e) {
      BOOST_TEST((e.kind() == ErrorKind::configuration));
      return e.what();
    }
    return "(no error)";
  }

  static TaskResult run(const Task& task, const std::string& example_text, uint64_t index = 0) {
    auto example = ExampleView::from_text(example_text);
    BOOST_REQUIRE(example.has_value());
    krino_call_context ctx{};
    ctx.struct_size = sizeof(ctx);
    ctx.item_index = index;
    ctx.seed = 1234;
    return task.run(*example, ctx);
  }
};

const TaskOutput& output_of(const TaskResult& result) {
  if (const auto* e = std::get_if<ItemError>(&result)) BOOST_FAIL("unexpected item error: " + e->message);
  return std::get<TaskOutput>(result);
}

const ItemError& error_of(const TaskResult& result) {
  BOOST_REQUIRE(std::holds_alternative<ItemError>(result));
  return std::get<ItemError>(result);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_SUITE(exec_options)

BOOST_FIXTURE_TEST_CASE(mistakes_are_configuration_errors_naming_the_key, ExecFixture) {
  BOOST_TEST(contains(config_error_of("{}"), "'command' is required"));
  BOOST_TEST(contains(config_error_of(R"({"command": "true", "timout_ms": 5})"), "unknown option 'timout_ms'"));
  BOOST_TEST(contains(config_error_of(R"({"command": []})"), "'command' must be a list"));
  BOOST_TEST(contains(config_error_of(R"({"command": ["true", {}]})"), "'command[1]' must be a string"));
  BOOST_TEST(contains(config_error_of(R"({"command": "true", "mode": "pool"})"), "'mode' must be per_example or worker"));
  BOOST_TEST(contains(config_error_of(R"({"command": "true", "timeout_ms": -1})"), "'timeout_ms' must be a whole number"));
  BOOST_TEST(contains(config_error_of(R"({"command": "true", "timeout_ms": "5s"})"), "'timeout_ms'"));
  BOOST_TEST(contains(config_error_of(R"({"command": "true", "timeout_ms": 1e18})"), "'timeout_ms'"));
  BOOST_TEST(contains(config_error_of(R"({"command": "true", "kill_grace_ms": 99999999999999})"),
                      "'kill_grace_ms' must be a whole number of milliseconds from 0 to 604800000"));
  BOOST_TEST(contains(config_error_of(R"({"command": "true", "max_output_bytes": 0})"), "'max_output_bytes'"));
  BOOST_TEST(contains(config_error_of(R"({"command": "true", "workers": 2})"), "'workers' applies only to mode: worker"));
  BOOST_TEST(contains(config_error_of(R"({"command": "true", "mode": "worker", "workers": 0})"), "'workers'"));
  BOOST_TEST(contains(config_error_of(R"({"command": "true", "env": {"A": [1]}})"), "'env.A' must be a string"));
  BOOST_TEST(contains(config_error_of(R"({"command": "true", "inherit_env": "yes"})"), "'inherit_env'"));
  BOOST_TEST(contains(config_error_of(R"({"command": "true", "cwd": "no-such-dir"})"), "'cwd'"));
  BOOST_TEST(contains(config_error_of(R"({"command": ["pyhton3-no-such-program", "agent.py"]})"),
                      "no program 'pyhton3-no-such-program' on PATH"));
  BOOST_TEST(contains(config_error_of(R"({"command": ["./agent.sh"]})"), "'./agent.sh' is not an executable file"));
  BOOST_TEST(contains(config_error_of(R"({"command": "true", "model": 3})"), "'model'"));
}

BOOST_FIXTURE_TEST_CASE(commands_resolve_against_the_experiment_directory, ExecFixture) {
  std::filesystem::create_directory(dir.path() / "sub");
  dir.write("sub/agent.sh", "#!/bin/sh\necho '{}'\n");
  std::filesystem::permissions(dir.file("sub/agent.sh"), std::filesystem::perms::owner_all);
  TaskConfig config;
  config.kind = "exec";
  config.base_dir = dir.path();
  config.options = json::parse(R"({"command": ["./agent.sh", 3, true], "cwd": "sub"})").as_object();
  ExecTask task(config, environment());
  // A relative program is found from the working directory, as a shell started there would.
  BOOST_TEST(task.options().process.executable == (dir.path() / "sub/agent.sh").lexically_normal().string());
  BOOST_TEST((task.options().process.arguments == std::vector<std::string>{"./agent.sh", "3", "true"}));
  const TaskOutput out = output_of(run(task, R"({"inputs":{}})"));
  BOOST_TEST(out.actual_outputs == "{}");
}

BOOST_FIXTURE_TEST_CASE(defaults_are_documented_ones, ExecFixture) {
  dir.write("agent.sh", "#!/bin/sh\n");
  std::filesystem::permissions(dir.file("agent.sh"), std::filesystem::perms::owner_all);
  TaskConfig config;
  config.kind = "exec";
  config.base_dir = dir.path();
  config.options = json::parse(R"({"command": "python3 agent.py", "mode": "worker"})").as_object();
  ExecTask task(config, environment(6));
  const ExecOptions& o = task.options();
  BOOST_TEST(o.process.executable == "/bin/sh");
  BOOST_TEST((o.process.arguments == std::vector<std::string>{"/bin/sh", "-c", "python3 agent.py"}));
  BOOST_TEST(o.process.working_directory == dir.path().lexically_normal());
  BOOST_TEST(o.limits.timeout.count() == 60000);
  BOOST_TEST(o.limits.kill_grace.count() == 1000);
  BOOST_TEST(o.limits.max_output_bytes == 16u << 20);
  BOOST_TEST(o.workers == 6u);  // the experiment's parallelism
  BOOST_TEST(task.calls_out());
  BOOST_TEST(task.workers_started() == 0u);  // lazily
}

BOOST_AUTO_TEST_CASE(the_descriptor_limit_is_raised_when_needed_and_never_lowered) {
  rlimit before{};
  BOOST_REQUIRE(::getrlimit(RLIMIT_NOFILE, &before) == 0);
  BOOST_TEST(!make_room_for_descriptors(16).has_value());
  if (before.rlim_max != RLIM_INFINITY) {
    auto warning = make_room_for_descriptors(static_cast<std::uint64_t>(before.rlim_max) + 1);
    BOOST_REQUIRE(warning.has_value());
    BOOST_TEST(contains(*warning, "ulimit -n"), *warning);
  }
  rlimit after{};
  BOOST_REQUIRE(::getrlimit(RLIMIT_NOFILE, &after) == 0);
  BOOST_TEST(after.rlim_cur >= before.rlim_cur);
}

BOOST_FIXTURE_TEST_CASE(the_environment_is_inherited_overridden_and_trimmed, ExecFixture) {
  ::setenv("KRINO_EXEC_TEST_INHERITED", "from-krino", 1);
  ::setenv("KRINO_EXEC_TEST_REMOVED", "gone", 1);
  ::setenv("KRINO_SEED", "inherited", 1);  // the per-call value must win
  dir.write("env.sh", "printf '{\"a\":\"%s\",\"b\":\"%s\",\"c\":\"%s\",\"d\":\"%s\"}' "
                      "\"$KRINO_EXEC_TEST_INHERITED\" \"$EXTRA\" \"${KRINO_EXEC_TEST_REMOVED-unset}\" \"$PWD\"\n"
                      "[ \"$KRINO_SEED\" = 1234 ] || exit 9\n");
  auto t = task(R"({"command": ["sh", "env.sh"], "env": {"EXTRA": 5, "KRINO_EXEC_TEST_REMOVED": null}})");
  const TaskOutput out = output_of(run(*t, R"({"inputs":{}})"));
  auto outputs = json::parse(out.actual_outputs).as_object();
  BOOST_TEST(outputs.at("a").as_string() == "from-krino");
  BOOST_TEST(outputs.at("b").as_string() == "5");
  BOOST_TEST(outputs.at("c").as_string() == "unset");
  BOOST_TEST(outputs.at("d").as_string() == dir.path().lexically_normal().string());  // PWD is the working directory
  auto clean = task(R"({"command": ["/usr/bin/env"], "inherit_env": false, "env": {"ONLY": "this"}})");
  const ItemError e = error_of(run(*clean, R"({"inputs":{}})"));  // env prints text, not JSON
  BOOST_TEST(contains(e.message, "'ONLY=this\n"), e.message);
  BOOST_TEST(!contains(e.message, "KRINO_EXEC_TEST_INHERITED"), e.message);
  ::unsetenv("KRINO_EXEC_TEST_INHERITED");
  ::unsetenv("KRINO_EXEC_TEST_REMOVED");
  ::unsetenv("KRINO_SEED");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(exec_task)

BOOST_FIXTURE_TEST_CASE(the_program_sees_the_example_and_its_context, ExecFixture) {
  auto t = task(R"({"command": "printf '{\"stdin\": %s, \"index\": %s, \"seed\": %s}' \"$(cat)\" $KRINO_ITEM_INDEX $KRINO_SEED"})");
  const TaskOutput out = output_of(run(*t, R"({"id": "q-1", "inputs": {"input": "hi"},
      "expectedOutputs": {"output": "ho"}, "metadata": {"m": 1}, "actualOutputs": {"recorded": true}})", 5));
  auto outputs = json::parse(out.actual_outputs).as_object();
  BOOST_TEST(json::serialize(outputs.at("stdin")) ==
             R"({"id":"q-1","inputs":{"input":"hi"},"expectedOutputs":{"output":"ho"},"metadata":{"m":1}})");
  BOOST_TEST(outputs.at("index").as_int64() == 5);
  BOOST_TEST(outputs.at("seed").as_int64() == 1234);
  BOOST_REQUIRE(out.metrics.has_value());
  BOOST_TEST(*out.metrics->latency_ms > 0.0);  // always measured
}

BOOST_FIXTURE_TEST_CASE(failures_become_item_errors_with_their_cause, ExecFixture) {
  auto exit_code = error_of(run(*task(R"({"command": "echo 'bad input' >&2; exit 3"})"), R"({"inputs":{}})"));
  BOOST_TEST(exit_code.stage == "task");
  BOOST_TEST(exit_code.component == "exec");
  BOOST_TEST(exit_code.code == KRINO_UNKNOWN);
  BOOST_TEST(exit_code.message == "the command exited with status 3; stderr: bad input");

  auto signal = error_of(run(*task(R"({"command": "kill -KILL $$"})"), R"({"inputs":{}})"));
  BOOST_TEST(signal.message == "the command was killed by signal 9 (SIGKILL)", signal.message);

  auto timeout = error_of(run(*task(R"({"command": "sleep 30", "timeout_ms": 200, "kill_grace_ms": 100})"), R"({"inputs":{}})"));
  BOOST_TEST(timeout.code == KRINO_DEADLINE_EXCEEDED);
  BOOST_TEST(contains(timeout.message, "timed out after 200 ms (timeout_ms)"), timeout.message);

  auto not_json = error_of(run(*task(R"({"command": "echo Hello"})"), R"({"inputs":{}})"));
  BOOST_TEST(not_json.code == KRINO_INTERNAL);
  BOOST_TEST(contains(not_json.message, "'Hello'"), not_json.message);

  auto huge = error_of(run(*task(R"({"command": "yes", "max_output_bytes": 100000})"), R"({"inputs":{}})"));
  BOOST_TEST(huge.code == KRINO_RESOURCE_EXHAUSTED);
  BOOST_TEST(contains(huge.message, "more than 100000 bytes"), huge.message);

  auto reported = error_of(run(*task(R"({"command": "echo '{\"actualOutputs\": null, \"error\": \"quota\"}'"})"), R"({"inputs":{}})"));
  BOOST_TEST(reported.message == "the command reported an error: quota");
  BOOST_TEST(no_children());
}

BOOST_FIXTURE_TEST_CASE(cancellation_stops_programs_and_refuses_new_ones, ExecFixture) {
  auto t = task(R"({"command": "sleep 30"})");
  std::thread later([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancellation.request();
  });
  const auto started = std::chrono::steady_clock::now();
  auto stopped = error_of(run(*t, R"({"inputs":{}})"));
  later.join();
  BOOST_TEST(stopped.code == KRINO_CANCELLED);
  BOOST_TEST((std::chrono::steady_clock::now() - started < std::chrono::seconds(5)));
  auto refused = error_of(run(*t, R"({"inputs":{}})"));
  BOOST_TEST(refused.code == KRINO_CANCELLED);
}

BOOST_FIXTURE_TEST_CASE(workers_answer_and_broken_ones_are_replaced, ExecFixture) {
  // A worker (in sh: it echoes the request id) that answers garbage for input 2, dies on input 3,
  // and hangs on input 4.
  const std::string worker = R"(while IFS= read -r line; do
    id=${line#*\"id\":}; id=${id%%,*}
    case "$line" in
      *'"input":2'*) echo 'not json' ;;
      *'"input":3'*) echo 'exiting' >&2; exit 5 ;;
      *'"input":4'*) sleep 30 ;;
      *) printf '{"id":%s,"actualOutputs":{"pid":%s},"usage":{"input_tokens":2000000,"output_tokens":0},"model":"small"}\n' "$id" $$ ;;
    esac
  done)";
  auto t = task(json::serialize(json::object{{"command", worker}, {"mode", "worker"}, {"timeout_ms", 500},
                                             {"kill_grace_ms", 200}}),
                1);
  std::vector<std::string> pids;
  for (int input : {0, 1, 2, 5, 3, 6, 4, 7}) {
    auto result = run(*t, R"({"inputs":{"input":)" + std::to_string(input) + "}}");
    if (input == 2) {
      const ItemError& e = error_of(result);
      BOOST_TEST(e.code == KRINO_INTERNAL);
      BOOST_TEST(contains(e.message, "answered with output that is not JSON"), e.message);
      BOOST_TEST(contains(e.message, "it was stopped ("), e.message);
      BOOST_TEST(contains(e.message, ") and will be replaced"), e.message);
    } else if (input == 3) {
      const ItemError& e = error_of(result);
      BOOST_TEST(contains(e.message, "exited with status 5 before answering"), e.message);
      BOOST_TEST(contains(e.message, "stderr: exiting"), e.message);
    } else if (input == 4) {
      const ItemError& e = error_of(result);
      BOOST_TEST(e.code == KRINO_DEADLINE_EXCEEDED);
      BOOST_TEST(contains(e.message, "did not answer within 500 ms"), e.message);
    } else {
      const TaskOutput& out = output_of(result);
      pids.push_back(json::serialize(json::parse(out.actual_outputs).at("pid")));
      BOOST_TEST(*out.metrics->tokens_in == 2000000);
      BOOST_TEST(*out.metrics->cost_usd == 2.0);
    }
  }
  // 0 and 1 on the first worker, 5 on the second, 6 on the third, 7 on the fourth.
  BOOST_REQUIRE(pids.size() == 5u);
  BOOST_TEST(pids[0] == pids[1]);
  BOOST_TEST(pids[1] != pids[2]);
  BOOST_TEST(pids[2] != pids[3]);
  BOOST_TEST(pids[3] != pids[4]);
  BOOST_TEST(static_cast<ExecTask&>(*t).workers_started() == 4u);
  t.reset();
  BOOST_TEST(no_children());
}

BOOST_FIXTURE_TEST_CASE(a_worker_that_exits_after_each_reply_fails_no_item, ExecFixture) {
  // Misused as a worker, a one-shot program still serves: each exit happens between requests, so
  // the next request goes to a new worker instead of failing its item.
  const std::string one_shot = R"(IFS= read -r line; id=${line#*\"id\":}; id=${id%%,*}
    printf '{"id":%s,"actualOutputs":{"pid":%s}}\n' "$id" $$)";
  auto t = task(json::serialize(json::object{{"command", one_shot}, {"mode", "worker"}}), 1);
  std::set<std::string> pids;
  for (int i = 0; i < 6; ++i) {
    const TaskOutput out = output_of(run(*t, R"({"inputs":{}})", static_cast<uint64_t>(i)));
    pids.insert(json::serialize(json::parse(out.actual_outputs).at("pid")));
  }
  BOOST_TEST(pids.size() == 6u);
}

BOOST_FIXTURE_TEST_CASE(items_waiting_on_programs_hold_no_thread, ExecFixture) {
  // 32 programs of 500 ms each from a 2-thread arena: suspended, they overlap (about 0.5 s);
  // blocking the two threads would take 8 s.
  const std::string worker = R"(while IFS= read -r line; do
    id=${line#*\"id\":}; id=${id%%,*}; sleep 0.5; printf '{"id":%s,"actualOutputs":{}}\n' "$id"
  done)";
  for (const std::string& options :
       {std::string(R"({"command": "sleep 0.5; echo '{}'"})"),
        json::serialize(json::object{{"command", worker}, {"mode", "worker"}})}) {
    auto t = task(options, 32);
    std::atomic<int> ok{0};
    const auto started = std::chrono::steady_clock::now();
    tbb::task_arena arena(2);
    krino::core::happens_before(&t);  // TBB hands the work to its threads (invisibly to ThreadSanitizer)
    arena.execute([&] {
      tbb::parallel_for(0, 32, [&](int i) {
        krino::core::happens_after(&t);
        if (std::holds_alternative<TaskOutput>(run(*t, R"({"inputs":{}})", static_cast<uint64_t>(i)))) ++ok;
        krino::core::happens_before(&t);
      });
    });
    krino::core::happens_after(&t);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    BOOST_TEST(ok.load() == 32, options);
    // Under a sanitizer the waits block their thread (await_callback): only the answers count.
    if (krino::core::kWaitsSuspendTasks) BOOST_TEST(seconds < 4.0, options << " took " << seconds << " s");
  }
}

BOOST_AUTO_TEST_SUITE_END()
