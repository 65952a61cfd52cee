// Online evaluation of production traces on both backends: trace eval rules (CRUD and validation),
// matching at ingestion by span name and by attribute, deterministic sampling (0, 1, and one half
// over 1,000 traces), an export sent again queueing nothing new, and the online_eval workers scoring
// against the fake LLM server (a 500 written as an error with its cause), shown on GET trace.
#include "server_api_fixture.hpp"

#include "krino/core/server/job_worker.hpp"
#include "krino/core/server/judge_page_worker.hpp"
#include "krino/core/server/online_eval_worker.hpp"

#include "fake_llm_server.hpp"

#include <thread>

using namespace krino::test;

namespace {

constexpr const char* kOnlineKey = "sk-online-3f9a-never-print-me";

boost::json::value online_json(const krino::fake_llm::test::HttpResult& result) { return krino::json::parse(result.body()); }

// A 32-digit trace id and 16-digit span id from small numbers.
std::string trace_hex(int n) {
  std::string digits = std::to_string(n);
  return std::string(32 - digits.size(), '0') + digits;
}
std::string span_hex(int n) {
  std::string digits = std::to_string(n);
  return std::string(16 - digits.size(), '0') + digits;
}

struct TestSpan {
  int trace = 1;
  int span = 1;
  int parent = 0;  // 0: a root
  std::string name = "agent";
  std::string attributes = "[]";  // OTLP/JSON attribute list
};

std::string string_attribute(const std::string& key, const std::string& value) {
  std::string out = R"({"key":)";
  krino::json::append_json_string(out, key);
  out += R"(,"value":{"stringValue":)";
  krino::json::append_json_string(out, value);
  out += "}}";
  return out;
}

// One OTLP/JSON export of `spans`, in project "support".
std::string otlp_export(const std::vector<TestSpan>& spans) {
  std::string out = R"({"resourceSpans":[{"resource":{"attributes":[)" + string_attribute("krino.project", "support") + R"(]},"scopeSpans":[{"spans":[)";
  for (std::size_t i = 0; i < spans.size(); ++i) {
    const TestSpan& span = spans[i];
    if (i) out += ',';
    out += R"({"traceId":")" + trace_hex(span.trace) + R"(","spanId":")" + span_hex(span.span) + '"';
    if (span.parent) out += R"(,"parentSpanId":")" + span_hex(span.parent) + '"';
    out += R"(,"name":)";
    krino::json::append_json_string(out, span.name);
    out += R"(,"startTimeUnixNano":")" + std::to_string(1700000000000000000LL + span.trace * 1000 + span.span) +
           R"(","endTimeUnixNano":")" + std::to_string(1700000000000000000LL + span.trace * 1000 + 500) + R"(","attributes":)" + span.attributes + '}';
  }
  return out + "]}]}]}";
}

// A root span asking `question`, answered `answer`.
TestSpan qa_root(int trace, const std::string& question, const std::string& answer, std::string name = "agent") {
  return TestSpan{trace, 1, 0, std::move(name), "[" + string_attribute("input.value", question) + "," + string_attribute("output.value", answer) + "]"};
}

template <class Backend>
struct OnlineFixture : ServerFixture<Backend> {
  OnlineFixture()
      : fake([] {
          krino::fake_llm::ServerOptions o;
          o.script = krino::fake_llm::parse_script(R"({"default":{"content":"{\"score\": 4, \"reason\": \"grounded\"}"}})");
          o.required_key = kOnlineKey;
          o.keep_last_requests = 1000;
          return o;
        }()) {}
  ~OnlineFixture() {
    if (jobs) jobs->stop();
  }

  std::string connection() {
    const auto made = this->call("POST", "/api/v1/llm-connections",
                                 R"({"name":"fake","baseUrl":")" + fake.base_url() + R"(/v1","model":"judge-mini","credentialRef":"JUDGE_KEY","timeoutMs":400,"maxRetries":2})");
    BOOST_REQUIRE_MESSAGE(made.status() == 201u, made.body());
    return std::string(online_json(made).at("id").as_string());
  }

  // A rule's body: `fields` are its matching members (name, target, spanName ...), then the judge's.
  static std::string rule_body(const std::string& connection_id, const std::string& fields) {
    return "{" + fields + R"(,"connectionId":")" + connection_id +
           R"(","evaluatorName":"grounded","criteria":"Is the answer grounded?","minScore":1,"maxScore":5,"threshold":0.5})";
  }

  std::string rule(const std::string& connection_id, const std::string& fields) {
    const auto made = this->call("POST", "/api/v1/trace-eval-rules", rule_body(connection_id, fields));
    BOOST_REQUIRE_MESSAGE(made.status() == 201u, made.body());
    return std::string(online_json(made).at("id").as_string());
  }

  boost::json::object rule_state(const std::string& id) { return online_json(this->call("GET", "/api/v1/trace-eval-rules/" + id)).as_object(); }

  void ingest(const std::vector<TestSpan>& spans) {
    const auto sent = this->call("POST", "/v1/traces", otlp_export(spans));
    BOOST_REQUIRE_MESSAGE(sent.status() == 200u, sent.body());
  }

  std::int64_t queued() { return this->store->job_queue_depth().queued; }

  void start_workers() {
    server::JudgeWorkerOptions options;
    options.environment = [](const std::string& name) -> std::optional<std::string> {
      if (name == "JUDGE_KEY") return std::string(kOnlineKey);
      return std::nullopt;
    };
    options.retry.base_delay = std::chrono::milliseconds(1);
    options.retry.max_delay = std::chrono::milliseconds(5);
    judge = std::make_unique<server::JudgePageWorker>(*this->store, llm_io, options);
    online = std::make_unique<server::OnlineEvalWorker>(*this->store, *judge, this->matcher->counters());
    server::JobWorkerOptions worker;
    worker.poll_interval = std::chrono::milliseconds(20);
    worker.lease = std::chrono::milliseconds(3000);
    worker.slots = 2;
    jobs = std::make_unique<server::JobWorker>(*this->store, worker);
    jobs->handle("online_eval", [this](const store::ClaimedJob& job, const Cancellation& lost) { (*online)(job, lost); });
    jobs->start();
  }

  // The trace's page once it shows `count` evaluations (waits up to a minute).
  boost::json::object trace_with_evaluations(int trace, std::size_t count) {
    for (int i = 0; i < 1200; ++i) {
      boost::json::value page = online_json(this->call("GET", "/api/v1/traces/" + trace_hex(trace)));
      if (page.at("evaluations").as_array().size() >= count) return page.as_object();
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    BOOST_FAIL("the trace's evaluations did not appear within a minute");
    return {};
  }

  krino::fake_llm::FakeLlmServer fake;
  IoService llm_io{1};
  std::unique_ptr<server::JudgePageWorker> judge;
  std::unique_ptr<server::OnlineEvalWorker> online;
  std::unique_ptr<server::JobWorker> jobs;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(online_eval)

BOOST_AUTO_TEST_CASE(globs_match_names_with_star_and_question_mark) {
  BOOST_TEST(server_api::glob_match("llm", "llm"));
  BOOST_TEST(!server_api::glob_match("llm", "llm.call"));
  BOOST_TEST(server_api::glob_match("llm.*", "llm.call"));
  BOOST_TEST(server_api::glob_match("*call*", "llm.call.retry"));
  BOOST_TEST(server_api::glob_match("ll?", "llm"));
  BOOST_TEST(!server_api::glob_match("ll?", "ll"));
  BOOST_TEST(server_api::glob_match("*", ""));
  BOOST_TEST(!server_api::glob_match("a*b*c", "aXbY"));
}

BOOST_AUTO_TEST_CASE(the_sampling_point_is_a_fixed_function_of_the_ids) {
  const double point = server_api::sampling_point("rule", trace_hex(7), "");
  BOOST_TEST(point >= 0.0);
  BOOST_TEST(point < 1.0);
  BOOST_TEST(server_api::sampling_point("rule", trace_hex(7), "") == point);
  BOOST_TEST(server_api::sampling_point("rule", trace_hex(7), span_hex(1)) != point);
  BOOST_TEST(server_api::sampling_point("other", trace_hex(7), "") != point);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(rules_are_created_read_replaced_and_deleted_with_clear_refusals, Backend, Backends, OnlineFixture<Backend>) {
  auto& f = *this;
  const std::string connection = f.connection();
  const auto made = f.call("POST", "/api/v1/trace-eval-rules",
                           f.rule_body(connection, R"("name":"llm answers","spanName":"llm*","attribute":{"key":"tier","value":"gold"},"target":"SPAN","samplingRate":0.25)"));
  BOOST_REQUIRE_EQUAL(made.status(), 201u);
  const boost::json::object rule = online_json(made).as_object();
  const std::string id(rule.at("id").as_string());
  BOOST_TEST(std::string(made.response[boost::beast::http::field::location]) == "/api/v1/trace-eval-rules/" + id);
  BOOST_TEST(rule.at("spanName").as_string() == "llm*");
  BOOST_TEST(rule.at("attribute").at("key").as_string() == "tier");
  BOOST_TEST(rule.at("attribute").at("value").as_string() == "gold");
  BOOST_TEST(rule.at("target").as_string() == "SPAN");
  BOOST_TEST(rule.at("samplingRate").as_double() == 0.25);
  BOOST_TEST(rule.at("enabled").as_bool());
  BOOST_TEST(rule.at("project").is_null());
  BOOST_TEST(rule.at("evaluatorName").as_string() == "grounded");
  BOOST_TEST(rule.at("criteria").as_string() == "Is the answer grounded?");
  BOOST_TEST(rule.at("maxScore").as_double() == 5.0);
  BOOST_TEST(rule.at("matched").as_int64() == 0);
  BOOST_TEST(rule.at("enqueued").as_int64() == 0);
  BOOST_TEST(rule.at("sampledOut").as_int64() == 0);

  // The same name again: 409. Each refusal names what is wrong.
  BOOST_TEST(f.call("POST", "/api/v1/trace-eval-rules", f.rule_body(connection, R"("name":"llm answers","target":"TRACE")")).status() == 409u);
  const std::vector<std::pair<std::string, std::string>> refused = {
      {R"("target":"TRACE")", "name"},
      {R"("name":"r")", "target"},
      {R"("name":"r","target":"ROOT")", "target"},
      {R"("name":"r","target":"TRACE","samplingRate":1.5)", "samplingRate"},
      {R"("name":"r","target":"TRACE","samplingRate":"half")", "samplingRate"},
      {R"("name":"r","target":"TRACE","attribute":{"value":"x"})", "attribute"},
      {R"("name":"r","target":"TRACE","attribute":{"key":"k","value":[1]})", "attribute.value"},
      {R"("name":"r","target":"TRACE","spanName":"")", "spanName"},
      {R"("name":"r","target":"TRACE","enabled":"yes")", "enabled"},
  };
  for (const auto& [fields, named] : refused) {
    const auto answer = f.call("POST", "/api/v1/trace-eval-rules", f.rule_body(connection, fields));
    BOOST_TEST(answer.status() == 400u, fields);
    BOOST_TEST(answer.body().find(named) != std::string::npos, fields << " -> " << answer.body());
  }
  // The judge settings are the judge job's, refused by the same code.
  const auto no_criteria = f.call("POST", "/api/v1/trace-eval-rules",
                                  R"({"name":"r","target":"TRACE","connectionId":")" + connection + R"(","evaluatorName":"e"})");
  BOOST_TEST(no_criteria.status() == 400u);
  BOOST_TEST(no_criteria.body().find("criteria") != std::string::npos);
  const auto unknown = f.call("POST", "/api/v1/trace-eval-rules", f.rule_body("0190a4f0-0000-7000-8000-000000000000", R"("name":"r","target":"TRACE")"));
  BOOST_TEST(unknown.status() == 400u);
  BOOST_TEST(unknown.body().find("connectionId") != std::string::npos);

  BOOST_TEST(online_json(f.call("GET", "/api/v1/trace-eval-rules")).as_array().size() == 1u);
  const auto replaced = f.call("PUT", "/api/v1/trace-eval-rules/" + id, f.rule_body(connection, R"("name":"roots","target":"TRACE","enabled":false)"));
  BOOST_REQUIRE_EQUAL(replaced.status(), 200u);
  BOOST_TEST(online_json(replaced).at("name").as_string() == "roots");
  BOOST_TEST(online_json(replaced).at("spanName").is_null());
  BOOST_TEST(!online_json(replaced).at("enabled").as_bool());
  BOOST_TEST(f.call("DELETE", "/api/v1/trace-eval-rules/" + id).status() == 204u);
  BOOST_TEST(f.call("GET", "/api/v1/trace-eval-rules/" + id).status() == 404u);
  BOOST_TEST(f.call("DELETE", "/api/v1/trace-eval-rules/" + id).status() == 404u);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(spans_match_by_name_and_by_attribute_and_an_export_sent_again_queues_nothing, Backend, Backends,
                                 OnlineFixture<Backend>) {
  auto& f = *this;
  const std::string connection = f.connection();
  const std::string by_name = f.rule(connection, R"("name":"llm calls","spanName":"llm.*","target":"SPAN")");
  const std::string by_attribute = f.rule(connection, R"("name":"gold","attribute":{"key":"tier","value":"gold"},"target":"TRACE")");
  const std::string other_project = f.rule(connection, R"("name":"elsewhere","project":"billing","target":"TRACE")");
  const std::string disabled = f.rule(connection, R"("name":"off","target":"TRACE","enabled":false)");
  const std::vector<TestSpan> spans = {
      qa_root(1, "q1", "a1"),
      TestSpan{1, 2, 1, "llm.chat", "[]"},
      TestSpan{1, 3, 1, "llm.embed", "[]"},
      TestSpan{1, 4, 1, "tool", "[" + string_attribute("tier", "gold") + "]"},
      TestSpan{1, 5, 1, "tool", "[" + string_attribute("tier", "gold") + "]"},  // the same trace: one TRACE match
      TestSpan{2, 1, 0, "agent", "[" + string_attribute("tier", "silver") + "]"},
  };
  f.ingest(spans);
  BOOST_TEST(f.rule_state(by_name).at("matched").as_int64() == 2);
  BOOST_TEST(f.rule_state(by_name).at("enqueued").as_int64() == 2);
  BOOST_TEST(f.rule_state(by_attribute).at("matched").as_int64() == 1);
  BOOST_TEST(f.rule_state(by_attribute).at("enqueued").as_int64() == 1);
  BOOST_TEST(f.rule_state(other_project).at("matched").as_int64() == 0);
  BOOST_TEST(f.rule_state(disabled).at("matched").as_int64() == 0);
  BOOST_TEST(f.queued() == 3);

  // The exporter retries: the spans are stored once and no second job is queued.
  f.ingest(spans);
  BOOST_TEST(f.queued() == 3);
  BOOST_TEST(f.rule_state(by_name).at("enqueued").as_int64() == 2);
  BOOST_TEST(f.rule_state(by_attribute).at("enqueued").as_int64() == 1);

  // A rule changed through the routes is matched at once (the cache is invalidated).
  BOOST_REQUIRE_EQUAL(f.call("PUT", "/api/v1/trace-eval-rules/" + disabled, f.rule_body(connection, R"("name":"off","target":"TRACE")")).status(), 200u);
  f.ingest({qa_root(3, "q3", "a3")});
  BOOST_TEST(f.rule_state(disabled).at("enqueued").as_int64() == 1);
  BOOST_TEST(f.queued() == 4);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(sampling_is_deterministic_none_at_zero_all_at_one_and_about_half_at_one_half, Backend, Backends,
                                 OnlineFixture<Backend>) {
  auto& f = *this;
  const std::string connection = f.connection();
  const std::string none = f.rule(connection, R"("name":"none","target":"TRACE","samplingRate":0)");
  const std::string all = f.rule(connection, R"("name":"all","target":"TRACE","samplingRate":1)");
  const std::string half = f.rule(connection, R"("name":"half","target":"TRACE","samplingRate":0.5)");
  std::vector<TestSpan> spans;
  for (int t = 1; t <= 1000; ++t) spans.push_back(qa_root(t, "q", "a"));
  f.ingest(spans);
  BOOST_TEST(f.rule_state(none).at("enqueued").as_int64() == 0);
  BOOST_TEST(f.rule_state(none).at("sampledOut").as_int64() == 1000);
  BOOST_TEST(f.rule_state(all).at("enqueued").as_int64() == 1000);
  BOOST_TEST(f.rule_state(all).at("sampledOut").as_int64() == 0);
  std::int64_t expected = 0;
  for (int t = 1; t <= 1000; ++t) expected += server_api::sampling_point(half, trace_hex(t), "") < 0.5 ? 1 : 0;
  const std::int64_t kept = f.rule_state(half).at("enqueued").as_int64();
  BOOST_TEST(kept == expected);  // the hash decides, not a draw
  BOOST_TEST(kept > 430);
  BOOST_TEST(kept < 570);
  BOOST_TEST(f.rule_state(half).at("sampledOut").as_int64() == 1000 - kept);
  // Sent again, the same traces are decided alike: nothing new is queued.
  const std::int64_t before = f.queued();
  f.ingest(spans);
  BOOST_TEST(f.queued() == before);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(the_workers_score_matches_and_the_trace_page_shows_them_with_errors_and_causes, Backend, Backends,
                                 OnlineFixture<Backend>) {
  auto& f = *this;
  f.fake.set_script(krino::fake_llm::parse_script(R"({"rules":[
    {"match":{"contains":"Input:\nbroken\n"},"reply":{"fault":{"kind":"status","status":500}}}],
    "default":{"content":"{\"score\": 4, \"reason\": \"grounded\"}"}})"));
  const std::string connection = f.connection();
  const std::string roots = f.rule(connection, R"("name":"roots","target":"TRACE")");
  const std::string tools = f.rule(connection, R"("name":"tools","spanName":"tool","target":"SPAN")");
  f.ingest({qa_root(1, "What is the refund window?", "30 days."), TestSpan{1, 2, 1, "tool", "[]"}, qa_root(2, "broken", "no answer")});
  f.start_workers();

  const boost::json::object first = f.trace_with_evaluations(1, 2);
  const auto& evaluations = first.at("evaluations").as_array();
  BOOST_REQUIRE_EQUAL(evaluations.size(), 2u);
  const boost::json::object* whole = nullptr;
  const boost::json::object* span = nullptr;
  for (const auto& one : evaluations) (one.at("spanId").is_null() ? whole : span) = &one.as_object();
  BOOST_REQUIRE(whole != nullptr);
  BOOST_REQUIRE(span != nullptr);
  BOOST_TEST(whole->at("ruleId").as_string() == roots);
  BOOST_TEST(whole->at("ruleName").as_string() == "roots");
  BOOST_TEST(whole->at("evaluatorName").as_string() == "grounded");
  BOOST_TEST(whole->at("score").as_double() == 0.75);
  BOOST_TEST(whole->at("success").as_bool());
  BOOST_TEST(whole->at("reason").as_string() == "grounded");
  BOOST_TEST(whole->at("error").is_null());
  BOOST_TEST(whole->at("judgedAtMs").as_int64() > 0);
  BOOST_TEST(whole->size() == 9u);  // exactly the names the UI reads
  // The tool span has no input or output of its own: an error saying which field is missing.
  BOOST_TEST(span->at("ruleId").as_string() == tools);
  BOOST_TEST(span->at("spanId").as_string() == span_hex(2));
  BOOST_TEST(span->at("score").is_null());
  BOOST_TEST(!span->at("success").as_bool());
  BOOST_TEST(std::string(span->at("error").as_string()).find("INPUT") != std::string::npos, span->at("error"));
  BOOST_TEST(first.at("evaluationCount").as_int64() == 2);
  BOOST_TEST(first.at("failedEvaluationCount").as_int64() == 1);
  BOOST_TEST(f.fake.request_count() >= 1u);

  // The model answers 500 for trace 2, three attempts (maxRetries 2): an error with its cause.
  const boost::json::object second = f.trace_with_evaluations(2, 1);
  const auto& failed = second.at("evaluations").as_array().front().as_object();
  BOOST_TEST(failed.at("score").is_null());
  BOOST_TEST(std::string(failed.at("error").as_string()).find("500") != std::string::npos, failed.at("error"));
  BOOST_TEST(std::string(failed.at("error").as_string()).find("the judge call failed") != std::string::npos, failed.at("error"));

  // The list counts each trace's evaluations; the job is done once (no evaluation is written twice).
  const auto list = online_json(f.call("GET", "/api/v1/traces")).at("traces").as_array();
  for (const auto& trace : list) {
    if (trace.at("traceId").as_string() == trace_hex(1)) BOOST_TEST(trace.at("evaluationCount").as_int64() == 2);
    if (trace.at("traceId").as_string() == trace_hex(2)) BOOST_TEST(trace.at("failedEvaluationCount").as_int64() == 1);
  }
  BOOST_TEST(f.matcher->counters().scored.load() == 1u);
  BOOST_TEST(f.matcher->counters().errors.load() == 2u);
  BOOST_TEST(f.matcher->counters().enqueued.load() == 3u);
  BOOST_TEST(f.store->job_queue_depth().queued == 0);
}

BOOST_AUTO_TEST_SUITE_END()
