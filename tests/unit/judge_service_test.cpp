// The judge service end to end against the fake LLM server: replies, JSON extraction and the
// repair round, retries, the cache, concurrency through suspended TBB tasks, and the API key.
#include "krino/core/common/thread_sanitizer.hpp"
#include "krino/core/llm/judge_config.hpp"
#include "krino/core/llm/judge_service.hpp"

#include "fake_llm_server.hpp"
#include "llm_test_support.hpp"
#include "script.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>
#include <string>

using namespace krino::core;
namespace fake = krino::fake_llm;
namespace json = boost::json;

namespace {

constexpr const char* kKey = "sk-test-4f9c1d2e-never-print-me";

struct Fixture {
  fake::FakeLlmServer server;
  std::filesystem::path cache = std::filesystem::temp_directory_path() /
                                ("krino-judge-cache-" + std::to_string(::getpid()) + "-" +
                                 std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));

  explicit Fixture(const std::string& script, std::uint32_t latency_ms = 0)
      : server([&] {
          fake::ServerOptions o;
          o.script = fake::parse_script(script);
          o.latency_ms = latency_ms;
          o.required_key = kKey;
          return o;
        }()) {}
  ~Fixture() { std::filesystem::remove_all(cache); }

  LlmConfig judge(const std::string& extra = "{}") const {
    json::object o{{"provider", "openai"}, {"base_url", server.base_url() + "/v1"}, {"model", "judge-mini"},
                   {"api_key_env", "KRINO_TEST_KEY"}, {"max_retries", 2}};
    const json::value overrides = json::parse(extra);
    for (const auto& [k, v] : overrides.as_object()) o[k] = v;
    return parse_judge_config(o, "default", test::fake_environment("KRINO_TEST_KEY", kKey));
  }

  JudgeServiceOptions options(const std::string& extra = "{}", bool with_cache = false) const {
    JudgeServiceOptions o;
    o.judges.push_back(judge(extra));
    o.retry.base_delay = std::chrono::milliseconds(1);
    o.retry.max_delay = std::chrono::milliseconds(5);
    if (with_cache) o.cache_dir = cache;
    o.prices = PriceTable::from_json(json::parse(R"({"judge-mini":{"input_per_million":1.0,"output_per_million":2.0}})").as_object());
    return o;
  }
};

std::string ask(const std::string& prompt, bool json_reply = true, const std::string& extra = "") {
  return R"({"messages":[{"role":"user","content":")" + prompt + R"("}])" +
         (json_reply ? R"(,"response_format":"json")" : "") + extra + "}";
}

json::object response_of(const JudgeCallOutcome& outcome) {
  BOOST_TEST_REQUIRE(outcome.status == KRINO_OK, outcome.text);
  return json::parse(outcome.text).as_object();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(judge_service)

BOOST_AUTO_TEST_CASE(a_reply_with_usage_and_cost) {
  Fixture f(R"({"default":{"content":"plain words","usage":{"input_tokens":1000,"output_tokens":500}}})");
  JudgeService service(f.options());
  const json::object r = response_of(service.call(ask("hello", false), 42));
  BOOST_TEST(r.at("content").as_string() == "plain words");
  BOOST_TEST(r.at("model").as_string() == "judge-mini");
  BOOST_TEST(r.at("usage").at("tokensIn").as_int64() == 1000);
  BOOST_TEST(r.at("usage").at("tokensOut").as_int64() == 500);
  BOOST_TEST(r.at("costUsd").as_double() == 0.002);  // (1000 * 1 + 500 * 2) / 1e6
  BOOST_TEST(r.at("cached").as_bool() == false);
  // The seed from the call context and the judge's temperature reach the wire.
  const json::value sent = json::parse(f.server.recent_requests().back().body);
  BOOST_TEST(sent.at("seed").to_number<std::int64_t>() == 42);
  BOOST_TEST(sent.at("temperature").to_number<double>() == 0.0);
}

// The response document's exact bytes, members in their order and numbers in their one form:
// plugins and recorded runs read this text, so a faster writer must not change it.
BOOST_AUTO_TEST_CASE(the_response_document_keeps_its_exact_text) {
  Fixture f(R"({"default":{"content":"plain \"words\"\n","usage":{"input_tokens":1000,"output_tokens":500}}})");
  JudgeService service(f.options());
  const JudgeCallOutcome outcome = service.call(ask("hello", false), 42);
  BOOST_TEST_REQUIRE(outcome.status == KRINO_OK, outcome.text);
  BOOST_TEST(outcome.text == R"({"content":"plain \"words\"\n","model":"judge-mini","usage":{"tokensIn":1000,"tokensOut":500},)"
                             R"("costUsd":0.002,"cached":false,"attempts":1,"stopReason":"stop"})");

  Fixture tools(R"({"default":{"tool_calls":[{"name":"get_weather","arguments":{"city":"Paris","days":2.5,"big":1e400}}]}})");
  JudgeService with_tools(tools.options());
  const JudgeCallOutcome called = with_tools.call(ask("weather?", false), 7);
  BOOST_TEST_REQUIRE(called.status == KRINO_OK, called.text);
  const json::object parsed = json::parse(called.text).as_object();
  const std::string id(parsed.at("toolCalls").at(0).at("id").as_string());
  // The fake server writes 2.5 as 2.5E0 and 1e400 as Infinity, which is no JSON: the arguments stay text.
  BOOST_TEST(called.text == R"({"content":"","model":"judge-mini","usage":{"tokensIn":3,"tokensOut":14},"costUsd":3.1e-05,)"
                            R"("cached":false,"attempts":1,"toolCalls":[{"id":")" + id +
                                R"(","name":"get_weather","arguments":"{\"city\":\"Paris\",\"days\":2.5E0,\"big\":Infinity}"}],)"
                                R"("stopReason":"tool_calls"})");

  Fixture object(R"({"default":{"tool_calls":[{"name":"get_time","arguments":{"zone":"Europe/Paris","offset":-1}}]}})");
  JudgeService with_object(object.options());
  const JudgeCallOutcome timed = with_object.call(ask("time?", false), 7);
  BOOST_TEST_REQUIRE(timed.status == KRINO_OK, timed.text);
  const std::string call_id(json::parse(timed.text).at("toolCalls").at(0).at("id").as_string());
  BOOST_TEST(timed.text == R"({"content":"","model":"judge-mini","usage":{"tokensIn":2,"tokensOut":11},"costUsd":2.4e-05,)"
                           R"("cached":false,"attempts":1,"toolCalls":[{"id":")" + call_id +
                               R"(","name":"get_time","arguments":{"zone":"Europe/Paris","offset":-1}}],"stopReason":"tool_calls"})");
}

// The request is read in memory of its own that is gone before the call waits: what the call
// sends later (tools' schemas, messages) must be its own copies. Under AddressSanitizer a schema
// left pointing into that memory is a use after free.
BOOST_AUTO_TEST_CASE(tools_reach_the_wire_whole) {
  Fixture f(R"({"default":{"content":"ok"}})");
  JudgeService service(f.options());
  const std::string schema = R"({"type":"object","properties":{"city":{"type":"string","maxLength":64},"days":{"maximum":1.5e300}},"required":["city"]})";
  const JudgeCallOutcome outcome = service.call(
      R"({"messages":[{"role":"user","content":"weather?"}],"tools":[{"name":"get_weather","description":"Current weather","parameters":)" +
          schema + R"(}],"tool_choice":"get_weather"})",
      3);
  BOOST_TEST_REQUIRE(outcome.status == KRINO_OK, outcome.text);
  const json::value sent = json::parse(f.server.recent_requests().back().body);
  BOOST_TEST(json::serialize(sent.at("tools")) == R"([{"type":"function","function":{"name":"get_weather","parameters":)" +
                                                      json::serialize(json::parse(schema)) + R"(,"description":"Current weather"}}])");
  BOOST_TEST(json::serialize(sent.at("tool_choice")) == R"({"type":"function","function":{"name":"get_weather"}})");
}

BOOST_AUTO_TEST_CASE(json_replies_are_extracted_from_prose_and_fences) {
  Fixture f(R"({"default":{"content":"Sure! Here it is:\n```json\n{\"score\": 4, \"reason\": \"ok\"}\n```\nHope that helps."}})");
  JudgeService service(f.options());
  const json::object r = response_of(service.call(ask("grade"), 1));
  BOOST_TEST(json::parse(r.at("content").as_string()) == json::parse(R"({"score":4,"reason":"ok"})"));
}

BOOST_AUTO_TEST_CASE(an_unparseable_reply_gets_one_repair_round) {
  Fixture f(R"({"rules":[{"match":{"contains":"could not read your last reply"},"reply":{"content":"{\"score\":1}"}}],
                "default":{"content":"I think it is good."}})");
  JudgeService service(f.options());
  const json::object r = response_of(service.call(ask("grade"), 1));
  BOOST_TEST(r.at("content").as_string() == R"({"score":1})");
  BOOST_TEST(service.stats().repairs == 1u);
  const auto requests = f.server.recent_requests();
  BOOST_REQUIRE(requests.size() == 2u);
  BOOST_TEST(requests[1].prompt.find("I think it is good.") != std::string::npos);  // the reply is shown back
  // The repair round asks again with the first exchange and the request for JSON appended. The
  // first request also carried krino's JSON instruction as a system message (its prompt never said
  // "json"); the second does not need it, since the repair request says so.
  const json::value first = json::parse(requests[0].body);
  const json::value second = json::parse(requests[1].body);
  const json::array& before = first.at("messages").as_array();
  const json::array& asked = second.at("messages").as_array();
  BOOST_REQUIRE(before.size() == 2u);
  BOOST_TEST(before[0].at("role").as_string() == "system");
  BOOST_REQUIRE(asked.size() == 3u);
  BOOST_TEST(json::serialize(asked[0]) == json::serialize(before[1]));
  BOOST_TEST(asked[1].at("role").as_string() == "assistant");
  BOOST_TEST(asked[1].at("content").as_string() == "I think it is good.");
  BOOST_TEST(asked[2].at("role").as_string() == "user");
  BOOST_TEST(second.at("seed") == first.at("seed"));
  BOOST_TEST(second.at("temperature") == first.at("temperature"));
  BOOST_TEST(second.at("response_format") == first.at("response_format"));
}

BOOST_AUTO_TEST_CASE(a_reply_that_never_parses_is_an_error_not_a_zero) {
  Fixture f(R"({"default":{"content":"no json here at all"}})");
  JudgeService service(f.options());
  const JudgeCallOutcome o = service.call(ask("grade"), 1);
  BOOST_TEST(o.status == KRINO_INTERNAL);
  BOOST_TEST(o.text.find("no usable JSON") != std::string::npos, o.text);
  BOOST_TEST(o.text.find("no json here at all") != std::string::npos, o.text);
  BOOST_TEST(f.server.recent_requests().size() == 2u);
}

BOOST_AUTO_TEST_CASE(rate_limits_and_server_errors_are_retried) {
  Fixture f(R"({"rules":[{"times":2,"reply":{"fault":{"kind":"status","status":429,"retry_after":"0"}}}],
                "default":{"content":"{\"ok\":true}"}})");
  JudgeService service(f.options());
  const json::object r = response_of(service.call(ask("x"), 1));
  BOOST_TEST(r.at("attempts").as_int64() == 3);
  const JudgeServiceStats s = service.stats();
  BOOST_TEST(s.retries == 2u);
  BOOST_TEST(s.http_attempts == 3u);
}

// A judge that never answers, a cut connection and a broken body are each retried like a 5xx.
BOOST_AUTO_TEST_CASE(timeouts_resets_and_broken_replies_are_retried) {
  Fixture f(R"({"rules":[{"match":{"contains":"slow"},"times":1,"reply":{"fault":"timeout"}},
                         {"match":{"contains":"cut"},"times":1,"reply":{"fault":"reset"}},
                         {"match":{"contains":"broken"},"times":1,"reply":{"fault":"malformed_json"}},
                         {"match":{"contains":"short"},"times":1,"reply":{"fault":"truncated"}}],
                "default":{"content":"{\"ok\":true}"}})");
  JudgeService service(f.options(R"({"timeout_ms":300})"));
  for (const char* prompt : {"slow", "cut", "broken", "short"}) {
    const JudgeCallOutcome o = service.call(ask(prompt), 1);
    BOOST_TEST(o.status == KRINO_OK, prompt << ": " << o.text);
    BOOST_TEST(o.record.attempts == 2, prompt);
  }
  BOOST_TEST(service.stats().retries == 4u);
}

BOOST_AUTO_TEST_CASE(giving_up_names_the_cause) {
  Fixture f(R"({"default":{"fault":{"kind":"status","status":503,"message":"overloaded"}}})");
  JudgeService service(f.options());  // max_retries 2: three attempts
  const JudgeCallOutcome o = service.call(ask("x"), 1);
  BOOST_TEST(o.status == KRINO_UNAVAILABLE);
  BOOST_TEST(o.text.find("judge 'default'") != std::string::npos, o.text);
  BOOST_TEST(f.server.recent_requests().size() == 3u);
  BOOST_TEST(service.stats().failures == 1u);

  Fixture bad_request(R"({"default":{"fault":{"kind":"status","status":400,"message":"bad"}}})");
  JudgeService strict(bad_request.options());
  BOOST_TEST(strict.call(ask("x"), 1).status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(bad_request.server.recent_requests().size() == 1u);  // a 400 is not retried
}

BOOST_AUTO_TEST_CASE(the_cache_answers_identical_calls_and_misses_changed_ones) {
  Fixture f(R"({"default":{"content":"{\"score\":1}","usage":{"input_tokens":10,"output_tokens":5}}})");
  {
    JudgeService service(f.options("{}", true));
    BOOST_TEST(response_of(service.call(ask("same"), 7)).at("cached").as_bool() == false);
  }
  JudgeService again(f.options("{}", true));
  const json::object hit = response_of(again.call(ask("same"), 7));
  BOOST_TEST(hit.at("cached").as_bool() == true);
  BOOST_TEST(hit.at("costUsd").as_double() == 0.0);
  BOOST_TEST(f.server.recent_requests().size() == 1u);
  BOOST_TEST(again.stats().cache_hits == 1u);
  // A different temperature, model or seed is a different question.
  BOOST_TEST(response_of(again.call(ask("same", true, R"(,"temperature":0.7)"), 7)).at("cached").as_bool() == false);
  BOOST_TEST(response_of(again.call(ask("same"), 8)).at("cached").as_bool() == false);
  JudgeService other_model(f.options(R"({"model":"judge-large"})", true));
  BOOST_TEST(response_of(other_model.call(ask("same"), 7)).at("cached").as_bool() == false);
  BOOST_TEST(f.server.recent_requests().size() == 4u);
}

BOOST_AUTO_TEST_CASE(errors_are_never_cached) {
  Fixture f(R"({"rules":[{"times":1,"reply":{"fault":{"kind":"status","status":400}}}],"default":{"content":"{\"a\":1}"}})");
  JudgeService service(f.options("{}", true));
  BOOST_TEST(service.call(ask("q"), 1).status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(response_of(service.call(ask("q"), 1)).at("cached").as_bool() == false);
}

// 200 calls at 100 ms each, 200 allowed at once, from a 2-thread arena: suspended tasks, not
// parked threads, so the whole batch takes about one latency, not a hundred. Parked threads would
// need 200 x 100 ms / 2 = 10 s; the bound is set well below that and far above one latency, so a
// loaded machine (other builds on both cores) does not make it fail.
BOOST_AUTO_TEST_CASE(calls_from_tbb_tasks_suspend_instead_of_blocking_threads) {
  Fixture f(R"({"default":{"content":"{\"ok\":1}"}})", 100);
  JudgeService service(f.options(R"({"max_concurrency":200})"));
  std::atomic<int> ok{0};
  tbb::task_arena arena(2);
  const auto started = std::chrono::steady_clock::now();
  arena.execute([&] {
    tbb::parallel_for(0, 200, [&](int i) {
      if (service.call(ask("n" + std::to_string(i)), static_cast<uint64_t>(i)).status == KRINO_OK) ++ok;
    });
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  BOOST_TEST(ok.load() == 200);
  // Under a sanitizer the waits block their thread (await_callback): only the answers count.
  if (krino::core::kWaitsSuspendTasks)
    BOOST_TEST(seconds < 6.0, "200 calls of 100 ms took " << seconds << " s (parked threads would take 10 s)");
}

BOOST_AUTO_TEST_CASE(unknown_judges_and_bad_requests_are_invalid_arguments) {
  Fixture f(R"({"default":{"content":"x"}})");
  JudgeService service(f.options());
  const JudgeCallOutcome unknown = service.call(R"({"judge":"strict","messages":[{"role":"user","content":"x"}]})", 1);
  BOOST_TEST(unknown.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(unknown.text.find("no judge named 'strict' (configured: default)") != std::string::npos, unknown.text);
  BOOST_TEST(service.call("not json", 1).status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(service.call(R"({"messages":[]})", 1).status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(f.server.recent_requests().empty());
}

BOOST_AUTO_TEST_CASE(the_api_key_never_appears_in_what_the_service_says) {
  Fixture f(R"({"default":{"fault":{"kind":"status","status":401,"message":"invalid key sk-test-4f9c1d2e-never-print-me"}}})");
  JudgeService service(f.options());
  const JudgeCallOutcome o = service.call(ask("x"), 1);
  BOOST_TEST(o.status == KRINO_PERMISSION_DENIED);
  BOOST_TEST(o.text.find(kKey) == std::string::npos, o.text);
  BOOST_TEST(f.server.recent_requests().back().api_key == kKey);  // it was sent, though
}

// `Retry-After: 3600` is capped at 60 s, and max_retries may be 100: without a budget one call
// could take 100 minutes. The next attempt would start after the budget: the call ends now.
BOOST_AUTO_TEST_CASE(a_wait_past_the_call_budget_ends_the_call_at_once) {
  Fixture f(R"({"default":{"fault":{"kind":"status","status":503,"retry_after":"3600"}}})");
  JudgeService service(f.options(R"({"max_retries":100,"call_budget_ms":2000,"breaker_failures":0})"));
  const auto started = std::chrono::steady_clock::now();
  const JudgeCallOutcome o = service.call(ask("x"), 1);
  BOOST_TEST((std::chrono::steady_clock::now() - started < std::chrono::seconds(2)));
  BOOST_TEST(o.status == KRINO_UNAVAILABLE);
  BOOST_TEST(o.text.find("gave up after 1 attempt: the next would start after the call's time budget of 2 s (call_budget_ms)"
                         " (the server asked to wait 60 s)") != std::string::npos, o.text);
  BOOST_TEST(f.server.recent_requests().size() == 1u);
}

// R11: Ctrl-C while calls wait on a Retry-After or on the rate limiter: each wait ends within the
// poll interval, and the call comes back CANCELLED saying what it waited for.
BOOST_AUTO_TEST_CASE(cancellation_ends_retry_and_rate_limit_waits) {
  Fixture f(R"({"rules":[{"match":{"contains":"busy"},"reply":{"fault":{"kind":"status","status":429,"retry_after":"30"}}}],
                "default":{"content":"{\"ok\":true}"}})");
  JudgeService service(f.options(R"({"requests_per_minute":1,"breaker_failures":0})"));
  Cancellation cancellation;
  std::atomic<int> finished{0};
  JudgeCallOutcome busy, limited;
  const auto started = std::chrono::steady_clock::now();
  std::thread first([&] { busy = service.call(ask("busy"), 1, &cancellation); ++finished; });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::thread second([&] { limited = service.call(ask("other"), 2, &cancellation); ++finished; });  // 1 per minute
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  BOOST_TEST(finished.load() == 0);
  cancellation.request();
  first.join();
  second.join();
  BOOST_TEST((std::chrono::steady_clock::now() - started < std::chrono::seconds(3)));
  BOOST_TEST(busy.status == KRINO_CANCELLED, busy.text);
  BOOST_TEST(busy.text.find("cancelled while waiting 30 s to try again") != std::string::npos, busy.text);
  BOOST_TEST(limited.status == KRINO_CANCELLED, limited.text);
  BOOST_TEST(limited.text.find("cancelled while waiting for the rate limit") != std::string::npos, limited.text);
  // Once cancelled, a new call is not sent at all.
  BOOST_TEST(service.call(ask("late"), 3, &cancellation).status == KRINO_CANCELLED);
  BOOST_TEST(f.server.recent_requests().size() == 1u);
}

// The circuit breaker: after breaker_failures calls in a row fail, calls fail at once (no request)
// for breaker_cooldown_ms; then one probe goes: its failure reopens, its success closes.
BOOST_AUTO_TEST_CASE(a_judge_that_keeps_failing_is_not_asked_until_a_probe_succeeds) {
  Fixture f(R"({"rules":[{"times":3,"reply":{"fault":{"kind":"status","status":503,"message":"down"}}}],
                "default":{"content":"{\"ok\":true}"}})");
  JudgeService service(f.options(R"({"max_retries":0,"breaker_failures":2,"breaker_cooldown_ms":300})"));
  BOOST_TEST(service.call(ask("a"), 1).status == KRINO_UNAVAILABLE);
  BOOST_TEST(service.call(ask("b"), 1).status == KRINO_UNAVAILABLE);
  const JudgeCallOutcome refused = service.call(ask("c"), 1);
  BOOST_TEST(refused.status == KRINO_UNAVAILABLE);
  BOOST_TEST(refused.text.find("judge 'default': not asked: the last 2 calls failed (the last: ") == 0u, refused.text);
  BOOST_TEST(refused.text.find("down") != std::string::npos, refused.text);
  BOOST_TEST(refused.text.find("it is tried again in 1 second") != std::string::npos, refused.text);
  BOOST_TEST(f.server.recent_requests().size() == 2u);

  std::this_thread::sleep_for(std::chrono::milliseconds(350));
  BOOST_TEST(service.call(ask("probe"), 1).status == KRINO_UNAVAILABLE);  // the third 503: open again
  BOOST_TEST(service.call(ask("d"), 1).text.find("not asked") != std::string::npos);
  BOOST_TEST(f.server.recent_requests().size() == 3u);

  std::this_thread::sleep_for(std::chrono::milliseconds(350));
  BOOST_TEST(service.call(ask("probe"), 1).status == KRINO_OK);  // the probe closes it
  BOOST_TEST(service.call(ask("e"), 1).status == KRINO_OK);
  BOOST_TEST(f.server.recent_requests().size() == 5u);
}

// Cached replies quote the prompts' answers: only the user may read them. A cache that cannot be
// used is said once, and the calls still succeed.
BOOST_AUTO_TEST_CASE(the_cache_is_private_and_an_unusable_one_is_said_once) {
  Fixture f(R"({"default":{"content":"{\"score\":1}"}})");
  {
    JudgeService service(f.options("{}", true));
    BOOST_TEST(service.call(ask("x"), 1).status == KRINO_OK);
  }
  namespace fs = std::filesystem;
  const auto mode_of = [](const fs::path& path) { return static_cast<unsigned>(fs::status(path).permissions() & fs::perms::all); };
  BOOST_TEST(mode_of(f.cache) == 0700u);
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(f.cache)) {
    if (entry.is_directory()) {
      BOOST_TEST(mode_of(entry.path()) == 0700u, entry.path());
    } else {
      BOOST_TEST(mode_of(entry.path()) == 0600u, entry.path());
      ++files;
    }
  }
  BOOST_TEST(files == 1);

  fs::create_directories(f.cache);
  const fs::path blocked = f.cache / "a-file";
  std::ofstream(blocked) << "not a directory";
  JudgeServiceOptions options = f.options();
  options.cache_dir = blocked / "cache";
  std::vector<std::string> warnings;
  options.warn = [&](const std::string& text) { warnings.push_back(text); };
  JudgeService service(std::move(options));
  for (int i = 0; i < 3; ++i) BOOST_TEST(service.call(ask("y" + std::to_string(i)), 1).status == KRINO_OK);
  BOOST_TEST_REQUIRE(warnings.size() == 1u);
  BOOST_TEST(warnings[0].find("judge cache: cannot create '" + (blocked / "cache").string() + "'") == 0u, warnings[0]);
}

BOOST_AUTO_TEST_SUITE_END()
