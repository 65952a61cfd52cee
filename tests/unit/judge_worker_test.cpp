// The server judge's workers against the fake LLM server with injected faults, on both backends:
// every item ends scored or as an error with its cause, retries stay within the connection's
// bound, a page whose workers kept dying is given up as errors, and the run returns to the status
// it had.
#include "server_api_fixture.hpp"

#include "krino/core/server/job_worker.hpp"
#include "krino/core/server/judge_page_worker.hpp"

#include "fake_llm_server.hpp"

#include <atomic>
#include <thread>

using namespace krino::test;

namespace {

constexpr const char* kWorkerKey = "sk-judge-7d1e-never-print-me";

boost::json::value worker_json(const krino::fake_llm::test::HttpResult& result) { return krino::json::parse(result.body()); }

template <class Backend>
struct WorkerFixture : ServerFixture<Backend> {
  WorkerFixture()
      : fake([&] {
          krino::fake_llm::ServerOptions o;
          o.script = krino::fake_llm::parse_script(R"({"default":{"content":"{\"score\": 4, \"reason\": \"fine\"}"}})");
          o.required_key = kWorkerKey;
          o.keep_last_requests = 1000;
          return o;
        }()) {}
  ~WorkerFixture() {
    if (jobs) jobs->stop();
  }

  // The judge's workers, as `krino serve` runs them; `key` is what JUDGE_KEY holds (none: unset).
  void start_workers(std::optional<std::string> key = std::string(kWorkerKey)) {
    server::JudgeWorkerOptions options;
    options.environment = [key](const std::string& name) -> std::optional<std::string> {
      if (name == "JUDGE_KEY") return key;
      return std::nullopt;
    };
    options.retry.base_delay = std::chrono::milliseconds(1);
    options.retry.max_delay = std::chrono::milliseconds(5);
    judge = std::make_unique<server::JudgePageWorker>(*this->store, llm_io, options);
    server::JobWorkerOptions worker;
    worker.poll_interval = std::chrono::milliseconds(20);
    worker.lease = std::chrono::milliseconds(3000);
    worker.slots = 2;
    jobs = std::make_unique<server::JobWorker>(*this->store, worker);
    jobs->handle("judge_page", [this](const store::ClaimedJob& job, const Cancellation& lost) { (*judge)(job, lost); });
    jobs->start();
  }

  std::string connection() {
    const auto made = this->call("POST", "/api/v1/llm-connections",
                                 R"({"name":"fake","baseUrl":")" + fake.base_url() +
                                     R"(/v1","model":"judge-mini","credentialRef":"JUDGE_KEY","timeoutMs":400,"maxRetries":2,"maxConcurrency":4})");
    BOOST_REQUIRE_EQUAL(made.status(), 201u);
    return std::string(worker_json(made).at("id").as_string());
  }

  // An ended (FAILED) run whose items ask q0 .. q<n-1>.
  std::string run_of(int n) {
    const std::string run = this->new_run();
    std::string items = R"({"items":[)";
    for (int i = 0; i < n; ++i) {
      if (i) items += ',';
      items += R"({"inputs":{"input":"q)" + std::to_string(i) + R"("},"actualOutputs":{"output":"answer"},"success":false})";
    }
    BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/runs/" + run + "/items", items + "]}").status(), 201u);
    BOOST_REQUIRE_EQUAL(this->call("PATCH", "/api/v1/runs/" + run, R"({"status":"FAILED"})").status(), 200u);
    return run;
  }

  std::string judge_run(const std::string& run, const std::string& connection_id) {
    const auto started = this->call("POST", "/api/v1/runs/" + run + "/judge-jobs",
                                    R"({"connectionId":")" + connection_id +
                                        R"(","evaluatorName":"helpful","criteria":"Is it helpful?","minScore":1,"maxScore":5,"threshold":0.5})");
    BOOST_REQUIRE_EQUAL(started.status(), 201u);
    return std::string(worker_json(started).at("id").as_string());
  }

  // The judge job once it has ended (waits up to a minute).
  boost::json::object finished(const std::string& run) {
    for (int i = 0; i < 1200; ++i) {
      const auto jobs_now = worker_json(this->call("GET", "/api/v1/runs/" + run + "/judge-jobs")).as_array();
      if (!jobs_now.empty() && !jobs_now.back().at("finishedAt").is_null()) return jobs_now.back().as_object();
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    BOOST_FAIL("the judge job did not end within a minute");
    return {};
  }

  // item index -> its judgment
  std::map<std::int64_t, boost::json::object> results(const std::string& run, const std::string& job) {
    std::map<std::int64_t, boost::json::object> out;
    const boost::json::value page = worker_json(this->call("GET", "/api/v1/runs/" + run + "/judge-jobs/" + job + "/results?size=1000"));
    for (const auto& one : page.at("content").as_array())
      out[one.at("index").as_int64()] = one.as_object();
    return out;
  }

  std::size_t calls_about(const std::string& text) {
    std::size_t n = 0;
    for (const auto& request : fake.recent_requests())
      if (request.prompt.find("Input:\n" + text + "\n") != std::string::npos) ++n;
    return n;
  }

  krino::fake_llm::FakeLlmServer fake;
  IoService llm_io{1};
  std::unique_ptr<server::JudgePageWorker> judge;
  std::unique_ptr<server::JobWorker> jobs;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(judge_worker)

BOOST_FIXTURE_TEST_CASE_TEMPLATE(every_item_is_scored_or_an_error_with_its_cause_under_faults, Backend, Backends, WorkerFixture<Backend>) {
  // q3 always 500; q5 rate-limited twice, then answered; q7 answers JSON cut short (also after the
  // repair request); q9 never answers. Every other item scores 4 of 1..5.
  auto& f = *this;
  f.fake.set_script(krino::fake_llm::parse_script(R"({"rules":[
    {"match":{"contains":"Input:\nq3\n"},"reply":{"fault":{"kind":"status","status":500}}},
    {"match":{"contains":"Input:\nq5\n"},"times":2,"reply":{"fault":{"kind":"status","status":429}}},
    {"match":{"contains":"Input:\nq7\n"},"reply":{"content":"{\"score\": 4"}},
    {"match":{"contains":"Input:\nq9\n"},"reply":{"fault":"timeout"}}],
    "default":{"content":"{\"score\": 4, \"reason\": \"fine\"}"}})"));
  const std::string connection = f.connection();
  const std::string run = f.run_of(12);
  f.start_workers();
  const std::string job = f.judge_run(run, connection);
  const auto ended = f.finished(run);
  BOOST_TEST(ended.at("status").as_string() == "SUCCEEDED");
  BOOST_TEST(ended.at("itemsScored").as_int64() == 9);
  BOOST_TEST(ended.at("itemsFailed").as_int64() == 3);
  BOOST_TEST(worker_json(f.call("GET", "/api/v1/runs/" + run)).at("status").as_string() == "FAILED");

  const auto judged = f.results(run, job);
  BOOST_REQUIRE_EQUAL(judged.size(), 12u);
  for (const auto& [index, one] : judged) {
    if (index == 3 || index == 7 || index == 9) {
      BOOST_TEST(one.at("score").is_null());
      BOOST_TEST_MESSAGE("q" << index << ": " << one.at("error").as_string());
      BOOST_TEST(!one.at("error").as_string().empty());
    } else {
      BOOST_TEST(one.at("score").as_double() == 0.75);
      BOOST_TEST(one.at("success").as_bool());
      BOOST_TEST(one.at("reason").as_string() == "fine");
    }
  }
  BOOST_TEST(std::string(judged.at(3).at("error").as_string()).find("500") != std::string::npos, judged.at(3).at("error"));
  BOOST_TEST(std::string(judged.at(9).at("error").as_string()).find("DEADLINE_EXCEEDED") != std::string::npos, judged.at(9).at("error"));
  // Retries are bounded by the connection's maxRetries (2): three attempts at most for a call.
  BOOST_TEST(f.calls_about("q3") == 3u);
  BOOST_TEST(f.calls_about("q5") == 3u);
  BOOST_TEST(f.calls_about("q9") == 3u);
  BOOST_TEST(f.calls_about("q0") == 1u);  // judged exactly once
  // No key in any stored judgment.
  for (const auto& [index, one] : judged) BOOST_TEST(boost::json::serialize(one).find(kWorkerKey) == std::string::npos);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(items_the_judge_could_not_score_count_as_errors_on_the_run_page, Backend, Backends, WorkerFixture<Backend>) {
  // The run page's error filter and its error count read the items' error flag: a judge error sets it.
  auto& f = *this;
  f.fake.set_script(krino::fake_llm::parse_script(R"({"rules":[
    {"match":{"contains":"Input:\nq1\n"},"reply":{"fault":{"kind":"status","status":500}}},
    {"match":{"contains":"Input:\nq4\n"},"reply":{"fault":{"kind":"status","status":400}}}],
    "default":{"content":"{\"score\": 4, \"reason\": \"fine\"}"}})"));
  const std::string connection = f.connection();
  const std::string run = f.run_of(6);
  const auto before = worker_json(f.call("GET", "/api/v1/runs/" + run + "/items?status=ERROR"));
  BOOST_TEST(before.at("content").as_array().empty());
  f.start_workers();
  f.judge_run(run, connection);
  f.finished(run);
  const auto errors = worker_json(f.call("GET", "/api/v1/runs/" + run + "/items?status=ERROR"));
  std::vector<std::int64_t> indexes;
  for (const auto& item : errors.at("content").as_array()) indexes.push_back(item.at("index").as_int64());
  BOOST_TEST(indexes == (std::vector<std::int64_t>{1, 4}), boost::test_tools::per_element());
  BOOST_TEST(errors.at("matchCount").as_int64() == 2);  // from the run's totals
  // Judged again, the same items fail again: the count stays (an item is in error once).
  f.judge_run(run, connection);
  f.finished(run);
  BOOST_TEST(worker_json(f.call("GET", "/api/v1/runs/" + run + "/items?status=ERROR")).at("matchCount").as_int64() == 2);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(a_missing_credential_variable_makes_every_item_an_error_naming_it, Backend, Backends, WorkerFixture<Backend>) {
  auto& f = *this;
  const std::string connection = f.connection();
  const std::string run = f.run_of(3);
  f.start_workers(std::nullopt);
  const std::string job = f.judge_run(run, connection);
  const auto ended = f.finished(run);
  BOOST_TEST(ended.at("status").as_string() == "FAILED");  // nothing could be scored
  BOOST_TEST(ended.at("itemsFailed").as_int64() == 3);
  const auto judged = f.results(run, job);
  BOOST_TEST(std::string(judged.at(0).at("error").as_string()).find("the environment variable JUDGE_KEY") != std::string::npos,
             judged.at(0).at("error"));
  BOOST_TEST(f.fake.request_count() == 0u);
  BOOST_TEST(worker_json(f.call("GET", "/api/v1/runs/" + run)).at("status").as_string() == "FAILED");
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(a_page_whose_workers_kept_dying_is_given_up_as_errors, Backend, Backends, WorkerFixture<Backend>) {
  auto& f = *this;
  const std::string connection = f.connection();
  const std::string run = f.run_of(2);  // one page
  const std::string job = f.judge_run(run, connection);
  // Three workers each claimed the page and died: their leases ran out long ago.
  const std::vector<std::string> kinds = {"judge_page"};
  for (int i = 0; i < 3; ++i) BOOST_REQUIRE(f.store->claim_job("dead-" + std::to_string(i), kinds, 1 + 10 * i, 1));
  f.start_workers();
  const auto ended = f.finished(run);
  BOOST_TEST(ended.at("itemsFailed").as_int64() == 2);
  const auto judged = f.results(run, job);
  BOOST_TEST(std::string(judged.at(0).at("error").as_string()).find("given up after 3 attempts (last: the lease of dead-2 ran out)") !=
                 std::string::npos,
             judged.at(0).at("error"));
  BOOST_TEST(f.fake.request_count() == 0u);
}

BOOST_AUTO_TEST_CASE(a_living_worker_keeps_its_lease_and_a_stopping_one_hands_its_job_back) {
  OnSqlite backend;
  const auto store = backend.open();
  std::vector<store::NewJob> queued(1);
  queued[0].kind = "slow";
  store->enqueue_jobs(queued);
  const std::vector<std::string> kinds = {"slow"};
  auto now_ms = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  };
  std::atomic<int> started{0};
  server::JobWorkerOptions options;
  options.poll_interval = std::chrono::milliseconds(10);
  options.lease = std::chrono::milliseconds(300);
  server::JobWorker worker(*store, options);
  worker.handle("slow", [&](const store::ClaimedJob& job, const Cancellation& lost) {
    // The first job takes four leases' time and ends; the second waits until the worker stops.
    if (++started == 1) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1200));
      store->complete_job(job.id, job.lease_token);
      return;
    }
    while (!lost.requested()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  });
  worker.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  BOOST_TEST(started == 1);
  // Past its first lease, the job is still held: the heartbeat renewed it.
  BOOST_TEST(!store->claim_job("other", kinds, now_ms(), 60000).has_value());
  store->enqueue_jobs(queued);
  for (int i = 0; i < 200 && started < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  BOOST_REQUIRE(started == 2);
  worker.stop();
  // Stopped mid-job: the job is claimable at once, not only when its lease runs out.
  const auto handed_back = store->claim_job("other", kinds, now_ms(), 60000);
  BOOST_REQUIRE(handed_back.has_value());
  BOOST_TEST(handed_back->attempts == 2);
  BOOST_TEST(*handed_back->last_error == "the server holding it stopped");
  BOOST_TEST(store->job_queue_depth().running == 1);  // only the one just claimed: the first is DONE
}

BOOST_AUTO_TEST_SUITE_END()
