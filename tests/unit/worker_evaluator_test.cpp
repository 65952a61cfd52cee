// Evaluators in worker processes: the host's side of krino.evaluatorworker/1 (lines in and out),
// and WorkerEvaluator over real /bin/sh workers: handshake, configure, answers, a worker that dies
// on one request (an item error with its exit and stderr; the next request gets a new worker), a
// refused configuration, and the memory limit a worker starts under.
#include "krino/core/common/error.hpp"
#include "krino/core/common/io_service.hpp"
#include "krino/core/process/worker_pool.hpp"
#include "krino/core/runner/evaluator_worker_protocol.hpp"
#include "krino/core/runner/worker_evaluator.hpp"

#include "process_test_support.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <vector>

using namespace krino::core;
using namespace krino::test;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

krino_call_context item_context(uint64_t item) {
  krino_call_context ctx{};
  ctx.struct_size = sizeof(ctx);
  ctx.seed = 42;
  ctx.item_index = item;
  ctx.run_index = 1;
  return ctx;
}

// A worker in sh: the handshake, then {"configured":true} (or a refusal when the options contain
// "refuse"), then a result echoing the request's id; a request mentioning "die" kills it.
constexpr const char* kShellEvaluator = R"sh(
printf '%s\n' '{"protocol":"krino.evaluatorworker/1","evaluator":{"id":"test.sh","name":"sh_eval","configSchema":{"type":"object","properties":{"threshold":{"type":"number","default":0.5}}},"capabilities":["deterministic","no-such-capability"]},"maxWorkers":2}'
IFS= read -r configure
case "$configure" in *refuse*) printf '%s\n' '{"error":{"message":"I refuse"}}'; exit 0;; esac
printf '%s\n' '{"configured":true}'
while IFS= read -r line; do
  id=${line#'{"id":'}; id=${id%%,*}
  case "$line" in *'"die"'*) echo "sh_eval: dying on request $id" >&2; exit 7;; esac
  printf '{"id":%s,"result":{"name":"x","score":0.25,"success":false,"reason":"pid %s"}}\n' "$id" "$$"
done
)sh";

struct EvaluatorFixture {
  ScratchDir dir;
  std::vector<std::string> logged;
  IoService io;

  WorkerEvaluatorSettings settings(std::size_t workers = 4) {
    WorkerEvaluatorSettings s;
    s.process = shell(kShellEvaluator, dir.path());
    s.limits.timeout = 10s;
    s.limits.kill_grace = 200ms;
    s.workers = workers;
    s.what = "sh evaluator";
    return s;
  }
  std::unique_ptr<WorkerEvaluator> start(const json::object& options, WorkerEvaluatorSettings s) {
    return std::make_unique<WorkerEvaluator>(
        io.context(), std::move(s), "sh_eval", [options](const WorkerHandshake&) { return options; },
        [this](const std::string& message) { logged.push_back(message); });
  }
};

// The error of a StatusOr, or "" (a test message is built whether the check passes or not).
template <class T, class E>
std::string why_not(const StatusOr<T, E>& value) {
  return value.ok() ? std::string() : value.error().message;
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A worker in Python that reads ahead (whatever has arrived), answers each request with its id,
// and dies on a request mentioning "die". `extra_handshake` goes into its handshake ("concurrency").
ProcessSpec read_ahead_worker(const std::filesystem::path& dir, const std::string& extra_handshake = "") {
  std::string script = R"py(
import os, sys
out = sys.stdout.buffer
out.write(b'{"protocol":"krino.evaluatorworker/1","evaluator":{"id":"test.py","name":"py_eval"}EXTRA}\n'); out.flush()
rest = b""
while True:
    chunk = os.read(0, 65536)
    if not chunk: break
    lines = (rest + chunk).split(b"\n"); rest = lines.pop()
    for line in lines:
        if b"configure" in line: out.write(b'{"configured":true}\n'); out.flush(); continue
        if b'"die"' in line: sys.stderr.write("py_eval: dying\n"); sys.stderr.flush(); os._exit(7)
        request_id = int(line[6:line.index(b",")])
        out.write(b'{"id":%d,"result":{"name":"x","score":1,"success":true}}\n' % request_id); out.flush()
)py";
  script.replace(script.find("EXTRA"), 5, extra_handshake);
  return ProcessSpec{"/usr/bin/python3", {"python3", "-c", script}, dir, {}};
}

// One group of `items` calls through evaluate_batch, from inside TBB (the task suspends once) or
// from a plain thread; item i's test case is testcase_of(i).
template <class TestCaseOf>
std::vector<StatusOr<WrittenResult, ItemError>> evaluate_group(const WorkerEvaluator& evaluator, std::size_t items,
                                                             TestCaseOf testcase_of, bool in_tbb = true) {
  std::vector<krino_call_context> contexts;
  for (std::size_t i = 0; i < items; ++i) contexts.push_back(item_context(i));
  std::vector<EvaluatorCall> calls;
  for (std::size_t i = 0; i < items; ++i) calls.push_back({&contexts[i], testcase_of(i)});
  if (!in_tbb) return evaluator.evaluate_batch(calls);
  std::vector<StatusOr<WrittenResult, ItemError>> results;
  tbb::task_arena arena(2);
  arena.execute([&] { tbb::parallel_for(0, 1, [&](int) { results = evaluator.evaluate_batch(calls); }); });
  return results;
}

const auto kEmptyCase = [](std::size_t) { return std::string_view(R"({"inputs":{}})"); };

}  // namespace

BOOST_AUTO_TEST_SUITE(evaluator_worker_protocol)

BOOST_AUTO_TEST_CASE(a_handshake_is_read_and_checked) {
  auto good = read_worker_handshake(
      R"({"protocol":"krino.evaluatorworker/1","evaluator":{"id":"a.b","name":"b","version":"2","configSchema":{"type":"object"},"capabilities":["thread-safe","future-bit"]},"concurrency":4})");
  BOOST_TEST_REQUIRE(good.ok(), why_not(good));
  BOOST_TEST(good.value().id == "a.b");
  BOOST_TEST(good.value().config_schema == R"({"type":"object"})");
  BOOST_TEST(good.value().capabilities == KRINO_CAP_THREAD_SAFE);  // unknown names are ignored
  BOOST_TEST(good.value().concurrency == 4u);
  BOOST_TEST(!good.value().max_workers.has_value());

  auto other = read_worker_handshake(R"({"protocol":"krino.evaluatorworker/2","evaluator":{"id":"a","name":"b"}})");
  BOOST_TEST(!other.ok());
  BOOST_TEST(mentions(why_not(other), "speaks protocol 'krino.evaluatorworker/2'"), why_not(other));
  BOOST_TEST(!read_worker_handshake("Loading model...").ok());
  BOOST_TEST(!read_worker_handshake(R"({"protocol":"krino.evaluatorworker/1","evaluator":{"id":"a"}})").ok());
  BOOST_TEST(!read_worker_handshake(R"({"protocol":"krino.evaluatorworker/1","evaluator":{"id":"a","name":"b"},"concurrency":0})").ok());
}

BOOST_AUTO_TEST_CASE(a_request_is_one_line_with_the_context) {
  krino_call_context ctx = item_context(9);
  ctx.deadline_unix_ms = 1700000000000;
  const std::string line = worker_evaluate_line(5, ctx, "{\"inputs\":\n{},\r\n\"actualOutputs\":{}}");
  BOOST_TEST(line == "{\"id\":5,\"testCase\":{\"inputs\": {},  \"actualOutputs\":{}},\"context\":{\"seed\":42,"
                     "\"runIndex\":1,\"itemIndex\":9,\"deadlineUnixMs\":1700000000000}}\n");
  BOOST_TEST(worker_configure_line(json::object{{"threshold", 0.5}}) == "{\"configure\":{\"threshold\":0.5}}\n");
}

BOOST_AUTO_TEST_CASE(a_handshake_may_say_which_sections_the_worker_reads) {
  auto none = read_worker_handshake(R"({"protocol":"krino.evaluatorworker/1","evaluator":{"id":"a","name":"b"}})");
  BOOST_TEST_REQUIRE(none.ok(), why_not(none));
  BOOST_TEST(!none.value().reads.has_value());  // the whole test case, as before "reads"
  auto two = read_worker_handshake(
      R"({"protocol":"krino.evaluatorworker/1","evaluator":{"id":"a","name":"b"},"reads":["metadata","inputs"]})");
  BOOST_TEST_REQUIRE(two.ok(), why_not(two));
  BOOST_TEST(two.value().reads.value_or(99u) == 0b1001u);
  auto empty = read_worker_handshake(R"({"protocol":"krino.evaluatorworker/1","evaluator":{"id":"a","name":"b"},"reads":[]})");
  BOOST_TEST_REQUIRE(empty.ok(), why_not(empty));
  BOOST_TEST(empty.value().reads.value_or(99u) == 0u);

  auto unknown = read_worker_handshake(
      R"({"protocol":"krino.evaluatorworker/1","evaluator":{"id":"a","name":"b"},"reads":["inputs","actualOutputs.output"]})");
  BOOST_TEST(!unknown.ok());
  BOOST_TEST(mentions(why_not(unknown), "its handshake's 'reads' names \"actualOutputs.output\", which is not a test-case "
                                        "section (inputs, actualOutputs, expectedOutputs, metadata)"),
             why_not(unknown));
  auto not_a_list = read_worker_handshake(R"({"protocol":"krino.evaluatorworker/1","evaluator":{"id":"a","name":"b"},"reads":"inputs"})");
  BOOST_TEST(mentions(why_not(not_a_list), "'reads' is not a list"), why_not(not_a_list));
}

BOOST_AUTO_TEST_CASE(a_request_carries_only_the_sections_read_as_their_bytes) {
  // Numbers no double holds exactly, a key order of its own and a line break: the bytes go as
  // they are (the line break becomes a space, as for the whole test case).
  const std::string inputs = R"({"input":"q","n":0.1000000000000000055511151231257827})";
  const std::string actual = R"({"output":"a"})";
  const std::string expected = "{\"z\":1,\n\"a\":123456789012345678901234567890}";
  const std::string metadata = R"({"tools":[1e400]})";
  krino_call_context ctx = item_context(3);
  std::string testcase = "{\"inputs\":";
  auto add = [&](const std::string& value, krino_span& span) {
    span.offset = testcase.size();
    span.size = value.size();
    testcase += value;
  };
  add(inputs, ctx.testcase_sections[0]);
  testcase += ",\"actualOutputs\":";
  add(actual, ctx.testcase_sections[1]);
  testcase += ",\"expectedOutputs\":";
  add(expected, ctx.testcase_sections[2]);
  testcase += ",\"metadata\":";
  add(metadata, ctx.testcase_sections[3]);
  testcase += "}";
  const std::string context = R"(,"context":{"seed":42,"runIndex":1,"itemIndex":3,"deadlineUnixMs":0}})"
                              "\n";

  const unsigned inputs_and_expected = 0b0101;
  BOOST_TEST(worker_evaluate_line(7, ctx, testcase, inputs_and_expected) ==
             "{\"id\":7,\"testCase\":{\"inputs\":" + inputs + ",\"expectedOutputs\":{\"z\":1, \"a\":123456789012345678901234567890}}" +
                 context);
  BOOST_TEST(worker_evaluate_line(7, ctx, testcase, 0u) == "{\"id\":7,\"testCase\":{}" + context);
  // The whole test case: the spans go along (its bytes are the test case's, so they hold there too).
  const std::string whole = worker_evaluate_line(7, ctx, testcase);
  const std::string spans = ",\"testCaseSections\":[10," + std::to_string(inputs.size()) + "," +
                            std::to_string(ctx.testcase_sections[1].offset) + "," + std::to_string(actual.size()) + "," +
                            std::to_string(ctx.testcase_sections[2].offset) + "," + std::to_string(expected.size()) + "," +
                            std::to_string(ctx.testcase_sections[3].offset) + "," + std::to_string(metadata.size()) + "]}}\n";
  BOOST_TEST(whole.substr(whole.size() - spans.size()) == spans, whole);
  BOOST_TEST(worker_evaluate_line(7, ctx, testcase, 0b1000u) == "{\"id\":7,\"testCase\":{\"metadata\":" + metadata + "}" + context);

  // A caller that gives no spans: the sections are found in the document.
  krino_call_context no_spans = item_context(3);
  BOOST_TEST(worker_evaluate_line(7, no_spans, testcase, 0b0010u) == "{\"id\":7,\"testCase\":{\"actualOutputs\":" + actual + "}" + context);
  // One the document lacks is an empty object, as a test case's absent section is.
  BOOST_TEST(worker_evaluate_line(7, no_spans, R"({"inputs":{"x":2}})", 0b0011u) ==
             "{\"id\":7,\"testCase\":{\"inputs\":{\"x\":2},\"actualOutputs\":{}}" + context);
}

BOOST_AUTO_TEST_CASE(answers_are_matched_by_id) {
  WorkerAnswer result = read_worker_answer(R"({"id":3,"result":{"name":"x","score":0.1,"success":false}})", 3);
  BOOST_TEST(static_cast<int>(result.kind) == static_cast<int>(WorkerAnswer::Kind::result));
  BOOST_TEST(result.text == R"({"name":"x","score":0.1,"success":false})");

  // The result's bytes as written: numbers digit for digit, white space and all.
  WorkerAnswer exact =
      read_worker_answer(R"({"id":3, "result": {"score":1.50,"success":true,"metadata":{"n":18446744073709551616}} })", 3);
  BOOST_TEST(static_cast<int>(exact.kind) == static_cast<int>(WorkerAnswer::Kind::result));
  BOOST_TEST(exact.text == R"({"score":1.50,"success":true,"metadata":{"n":18446744073709551616}})");

  WorkerAnswer error = read_worker_answer(R"({"id":3,"error":{"code":"INVALID_ARGUMENT","message":"no toolCalls"}})", 3);
  BOOST_TEST(static_cast<int>(error.kind) == static_cast<int>(WorkerAnswer::Kind::error));
  BOOST_TEST(error.code == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(error.text == "no toolCalls");

  WorkerAnswer stale = read_worker_answer(R"({"id":2,"result":{}})", 3);
  BOOST_TEST(static_cast<int>(stale.kind) == static_cast<int>(WorkerAnswer::Kind::not_an_answer));
  BOOST_TEST(mentions(stale.text, "expected 3"), stale.text);
  BOOST_TEST(static_cast<int>(read_worker_answer("oops", 3).kind) == static_cast<int>(WorkerAnswer::Kind::not_an_answer));

  // Ill-formed UTF-8 in a reason is repaired, as for a plugin in this process.
  WorkerAnswer repaired = read_worker_answer("{\"id\":1,\"result\":{\"reason\":\"caf\xC3\"}}", 1);
  BOOST_TEST(static_cast<int>(repaired.kind) == static_cast<int>(WorkerAnswer::Kind::result));
  BOOST_TEST(mentions(repaired.text, "caf\xEF\xBF\xBD"), repaired.text);
}

BOOST_AUTO_TEST_CASE(configure_answers) {
  BOOST_TEST(read_worker_configured(R"({"configured":true})").ok());
  Status refused = read_worker_configured(R"({"error":{"message":"bad pattern"}})");
  BOOST_TEST(refused.code == KRINO_FAILED_PRECONDITION);
  BOOST_TEST(refused.message == "bad pattern");
  BOOST_TEST(!read_worker_configured(R"({"id":1})").ok());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_FIXTURE_TEST_SUITE(worker_evaluator, EvaluatorFixture)

BOOST_AUTO_TEST_CASE(a_worker_answers_and_one_that_dies_is_replaced) {
  auto evaluator = start({}, settings());
  BOOST_TEST(evaluator->handshake().id == "test.sh");
  BOOST_TEST(evaluator->handshake().capabilities == KRINO_CAP_DETERMINISTIC);
  BOOST_TEST(evaluator->max_workers() == 2u);  // the handshake's maxWorkers bounds workers: 4

  auto first = evaluator->evaluate(item_context(0), R"({"inputs":{}})");
  BOOST_TEST_REQUIRE(first.ok(), why_not(first));
  const std::string& first_text = std::get<std::string>(first.value());  // a worker's answer is text
  BOOST_TEST(mentions(first_text, "\"score\":0.25"), first_text);

  auto died = evaluator->evaluate(item_context(1), R"({"inputs":{"die":true}})");
  BOOST_TEST_REQUIRE(!died.ok());
  BOOST_TEST(died.error().stage == "evaluator");
  BOOST_TEST(died.error().component == "sh_eval");
  BOOST_TEST(mentions(why_not(died), "exited with status 7 before answering"), why_not(died));
  BOOST_TEST(mentions(why_not(died), "stderr: sh_eval: dying on request"), why_not(died));

  auto after = evaluator->evaluate(item_context(2), R"({"inputs":{}})");
  BOOST_TEST_REQUIRE(after.ok(), why_not(after));
  BOOST_TEST(evaluator->workers_started() >= 2u);
}

BOOST_AUTO_TEST_CASE(pipelined_requests_through_one_worker_blame_only_the_item_it_died_on) {
  // One worker that reads ahead (whatever has arrived) and dies on the request mentioning "die":
  // that item is the error; the requests it had read behind it are sent again to a new worker,
  // those it had not read as well, and every other item is scored.
  WorkerEvaluatorSettings s = settings(1);
  s.process = read_ahead_worker(dir.path());
  auto evaluator = start({}, s);
  BOOST_TEST(evaluator->handshake().concurrency == kDefaultWorkerConcurrency);  // none given
  constexpr int kItems = 200;
  std::vector<std::optional<StatusOr<WrittenResult, ItemError>>> results(kItems);
  tbb::task_arena arena(2);
  arena.execute([&] {
    tbb::parallel_for(0, kItems, [&](int i) {
      results[i] = evaluator->evaluate(item_context(i), i == 57 ? R"({"inputs":{"die":true}})" : R"({"inputs":{}})");
    });
  });
  for (int i = 0; i < kItems; ++i) {
    BOOST_REQUIRE(results[i].has_value());
    if (i == 57) {
      BOOST_TEST(!results[i]->ok());
      BOOST_TEST(mentions(why_not(*results[i]), "exited with status 7 before answering"), why_not(*results[i]));
      BOOST_TEST(mentions(why_not(*results[i]), "py_eval: dying"), why_not(*results[i]));
    } else {
      BOOST_TEST(results[i]->ok(), "item " << i << ": " << why_not(*results[i]));
    }
  }
  BOOST_TEST(evaluator->workers_started() == 2u);  // the first, and the one after the death
}

BOOST_AUTO_TEST_CASE(a_batch_goes_out_at_once_and_blames_only_the_item_it_died_on) {
  // A group's requests through evaluate_batch: every answer in its place, the item the worker died
  // on the only error, the requests behind it sent again. Once inside TBB (the task suspends once)
  // and once from a plain thread.
  WorkerEvaluatorSettings s = settings(2);
  s.process = read_ahead_worker(dir.path());
  auto evaluator = start({}, s);
  BOOST_TEST(evaluator->batches());
  constexpr std::size_t kItems = 40;
  auto dies_on_17 = [](std::size_t i) { return std::string_view(i == 17 ? R"({"inputs":{"die":true}})" : R"({"inputs":{}})"); };
  for (const bool in_tbb : {true, false}) {
    const auto results = evaluate_group(*evaluator, kItems, dies_on_17, in_tbb);
    BOOST_TEST_REQUIRE(results.size() == kItems);
    for (std::size_t i = 0; i < kItems; ++i) {
      if (i == 17) {
        BOOST_TEST(mentions(why_not(results[i]), "exited with status 7 before answering"), why_not(results[i]));
      } else {
        BOOST_TEST(results[i].ok(), "item " << i << ": " << why_not(results[i]));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(a_batch_larger_than_the_workers_room_flows_through_them) {
  // One worker that takes one request at a time: the batch's later requests wait for the earlier
  // answers' leases, which go back as the answers arrive (held to the end, they would deadlock).
  WorkerEvaluatorSettings s = settings(1);
  s.process = read_ahead_worker(dir.path(), R"(,"concurrency":1)");
  auto evaluator = start({}, s);
  BOOST_TEST(evaluator->handshake().concurrency == 1u);
  const auto results = evaluate_group(*evaluator, 12, kEmptyCase);
  BOOST_TEST_REQUIRE(results.size() == 12u);
  for (std::size_t i = 0; i < results.size(); ++i) BOOST_TEST(results[i].ok(), "item " << i << ": " << why_not(results[i]));
  BOOST_TEST(evaluator->workers_started() == 1u);
}

BOOST_AUTO_TEST_CASE(a_group_whose_worker_leaves_after_every_answer_is_scored) {
  // One worker at a time, one request each, and each exits after its answer (as krino-plugin-host
  // does near its memory limit): most of the group's requests find their worker gone and are sent
  // again, one after the other, each to a new worker. Their leases must go back as they are done,
  // or the retries would wait for each other forever.
  WorkerEvaluatorSettings s = settings(1);
  s.process = shell(R"sh(
printf '%s\n' '{"protocol":"krino.evaluatorworker/1","evaluator":{"id":"test.once","name":"once"},"concurrency":1}'
IFS= read -r configure
printf '%s\n' '{"configured":true}'
IFS= read -r line
id=${line#'{"id":'}; id=${id%%,*}
printf '{"id":%s,"result":{"name":"x","score":1,"success":true}}\n' "$id"
)sh", dir.path());
  auto evaluator = start({}, s);
  const auto results = evaluate_group(*evaluator, 8, kEmptyCase);
  BOOST_TEST_REQUIRE(results.size() == 8u);
  std::size_t scored = 0;
  for (const auto& result : results) scored += result.ok() ? 1 : 0;
  // A request is sent to three workers at most: the one that finds a worker gone three times fails,
  // saying so; every one is answered.
  for (std::size_t i = 0; i < results.size(); ++i)
    if (!results[i].ok()) BOOST_TEST(mentions(why_not(results[i]), "worker"), "item " << i << ": " << why_not(results[i]));
  BOOST_TEST(scored >= 1u);
}

BOOST_AUTO_TEST_CASE(a_worker_that_declares_its_reads_gets_only_those_sections) {
  // The worker keeps each request line in a file; the test compares them with what was sent.
  WorkerEvaluatorSettings s = settings(1);
  s.process = shell(R"sh(
printf '%s\n' '{"protocol":"krino.evaluatorworker/1","evaluator":{"id":"test.reads","name":"reads"},"reads":["expectedOutputs","actualOutputs"]}'
IFS= read -r configure
printf '%s\n' '{"configured":true}'
while IFS= read -r line; do
  printf '%s\n' "$line" >> requests.jsonl
  id=${line#'{"id":'}; id=${id%%,*}
  printf '{"id":%s,"result":{"name":"x","score":1,"success":true}}\n' "$id"
done
)sh", dir.path());
  auto evaluator = start({}, s);
  BOOST_TEST(evaluator->handshake().reads.value_or(99u) == 0b0110u);
  const std::string testcase =
      R"({"inputs":{"input":"long prompt"},"actualOutputs":{"output":"x","score":1.50},"expectedOutputs":{"n":18446744073709551616},"metadata":{"big":"tools"}})";
  auto result = evaluator->evaluate(item_context(4), testcase);  // no spans given: found by scanning
  BOOST_TEST_REQUIRE(result.ok(), why_not(result));
  evaluator.reset();  // the worker has written its file
  std::ifstream file(dir.path() / "requests.jsonl");
  std::string line;
  BOOST_TEST_REQUIRE(static_cast<bool>(std::getline(file, line)));
  BOOST_TEST(line.substr(0, line.find(",\"context\"")) ==
             R"({"id":1,"testCase":{"actualOutputs":{"output":"x","score":1.50},"expectedOutputs":{"n":18446744073709551616}})");
}

BOOST_AUTO_TEST_CASE(an_unknown_section_in_reads_is_a_configuration_error_naming_the_worker) {
  WorkerEvaluatorSettings s = settings(1);
  s.process = shell(R"sh(
printf '%s\n' '{"protocol":"krino.evaluatorworker/1","evaluator":{"id":"test.reads","name":"reads"},"reads":["input"]}'
IFS= read -r configure
)sh", dir.path());
  BOOST_CHECK_EXCEPTION(start({}, s), KrinoError, [](const KrinoError& e) {
    BOOST_TEST(mentions(e.what(), "sh evaluator: its handshake's 'reads' names \"input\", which is not a test-case section"),
               e.what());
    return true;
  });
}

BOOST_AUTO_TEST_CASE(a_refused_configuration_is_a_configuration_error) {
  BOOST_CHECK_EXCEPTION(start(json::object{{"mode", "refuse"}}, settings()), KrinoError, [](const KrinoError& e) {
    BOOST_TEST(mentions(e.what(), "sh evaluator: it refused its options: I refuse"), e.what());
    return true;
  });
}

BOOST_AUTO_TEST_CASE(a_worker_starts_under_its_memory_limit) {
  WorkerEvaluatorSettings s = settings(1);
  s.process = shell("IFS= read -r line; printf '%s\\n' \"$(ulimit -v)\"", dir.path());
  s.process.memory_limit_bytes = 300ull << 20;
  ProcessLimits limits = s.limits;
  auto started = WorkerProcess::start(io.context().get_executor(), s.process, limits, {});
  BOOST_TEST_REQUIRE(started.worker != nullptr, started.error);
  WorkerReply reply =
      await_callback<WorkerReply>([&](auto done) { started.worker->request("go\n", std::move(done)); });
  BOOST_TEST(reply.line == std::to_string(300 * 1024));  // ulimit -v counts KiB
  await_callback<WorkerExit>([&](auto done) { started.worker->shutdown(std::move(done)); });
}

BOOST_AUTO_TEST_SUITE_END()
