// Two `krino serve` processes on one PostgreSQL database (docs/server.md, "Several replicas"):
// - the same batches sent to both at once, some more than once, under one Idempotency-Key each,
//   are stored once, with item numbers dense and each batch's items in a row, and both replicas
//   serve the same run;
// - every ended run is judged once, and each regressed run is alerted once per webhook, a failed
//   attempt retried once by whichever replica, the baseline never;
// - a replica killed (SIGKILL) while it waits on a webhook keeps its lease until it runs out, and
//   then the other replica delivers the alert.
#include "postgres_cluster.hpp"
#include "process.hpp"
#include "serve_process.hpp"
#include "test_http_client.hpp"

#include "krino/core/common/content_digest.hpp"
#include "krino/core/common/io_service.hpp"
#include "krino/core/http_server/http_server.hpp"

#include <boost/test/unit_test.hpp>

#include <krino/json_parse.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

using namespace krino::test;
using krino::fake_llm::test::HttpCall;
using krino::fake_llm::test::HttpResult;
using krino::fake_llm::test::TestHttpClient;
using Clock = std::chrono::steady_clock;

namespace {

// One cluster for the executable, made on the main thread (it outlives every test).
PostgresCluster& replicas_cluster() {
  static PostgresCluster cluster;
  return cluster;
}

constexpr const char* kSecret = "replica-secret";

// Quick alert settings, so that a test waits for milliseconds rather than the defaults' seconds.
std::vector<std::string> replica_options(const std::string& database, const std::string& lease_ms, const std::string& timeout_ms) {
  return {"--database", database, "--alert-poll-ms", "50", "--alert-retry-ms", "200", "--alert-max-delay-ms", "1000",
          "--alert-timeout-ms", timeout_ms, "--alert-lease-ms", lease_ms};
}

// Replicas A and B on one fresh database, each logging to its own file (shown when a test fails).
struct Replicas {
  // The default lease is long enough that no check or POST outlives it, even in a sanitiser build:
  // only the test of a killed replica waits for one to run out.
  explicit Replicas(const std::string& lease_ms = "15000", const std::string& timeout_ms = "3000")
      : database(replicas_cluster().new_database()),
        a_log(temp_path("replica-a-" + std::to_string(++made) + ".log")),
        b_log(temp_path("replica-b-" + std::to_string(made) + ".log")),
        a(unused_port(), replica_options(database, lease_ms, timeout_ms), a_log),
        b(unused_port(), replica_options(database, lease_ms, timeout_ms), b_log) {}
  // A failing check has shown what it needs of the logs already (logs()).
  ~Replicas() {
    std::filesystem::remove(a_log);
    std::filesystem::remove(b_log);
  }
  Replicas(const Replicas&) = delete;
  Replicas& operator=(const Replicas&) = delete;
  ServeProcess& operator[](int i) { return i == 0 ? a : b; }
  // What the replicas wrote on stderr but the access log: errors, alert attempts, start and stop.
  std::string logs() const {
    std::string out;
    for (const std::string* log : {&a_log, &b_log}) {
      out.append(log == &a_log ? "\n--- replica A:\n" : "\n--- replica B:\n");
      std::istringstream lines(read_file(*log));
      for (std::string line; std::getline(lines, line);)
        if (line.find("\"event\":\"http_request\"") == std::string::npos) out.append(line).append("\n");
    }
    return out;
  }

  static inline int made = 0;
  std::string database;
  std::string a_log, b_log;
  ServeProcess a, b;
};

HttpResult api(unsigned short port, const std::string& method, const std::string& target, const std::string& body = "",
               std::vector<std::pair<std::string, std::string>> headers = {}) {
  HttpCall call;
  call.method = method;
  call.target = target;
  call.body = body;
  call.headers = std::move(headers);
  call.deadline = std::chrono::milliseconds(15'000);
  return krino::fake_llm::test::http_call(port, call);
}

boost::json::value api_json(unsigned short port, const std::string& target) {
  const HttpResult got = api(port, "GET", target);
  BOOST_REQUIRE_MESSAGE(got.status() == 200u, target + " answered " + std::to_string(got.status()) + ": " + got.body());
  return krino::json::parse(got.body());
}

std::string new_run(unsigned short port, const std::string& experiment) {
  const HttpResult made = api(port, "POST", "/api/v1/projects/replicas/runs", R"({"experimentName":")" + experiment + R"("})");
  BOOST_REQUIRE_MESSAGE(made.status() == 201u, made.body());
  return std::string(krino::json::parse(made.body()).at("runId").as_string());
}

void end_run(unsigned short port, const std::string& run_id, const std::string& status) {
  const HttpResult ended = api(port, "PATCH", "/api/v1/runs/" + run_id, R"({"status":")" + status + R"("})");
  BOOST_REQUIRE_MESSAGE(ended.status() == 200u, ended.body());
}

// Items numbered from `first`: input n, passing unless n is a multiple of 3 (or when `failing`
// says so, for the first `failing` of them).
std::string items_body(int first, int count, std::optional<int> failing = std::nullopt) {
  std::string body = R"({"items":[)";
  for (int i = 0; i < count; ++i) {
    const int n = first + i;
    const bool pass = failing ? i >= *failing : n % 3 != 0;
    if (i > 0) body.append(",");
    body.append(R"({"inputs":{"n":)").append(std::to_string(n)).append(R"(},"success":)").append(pass ? "true" : "false");
    body.append(R"(,"evalResults":[{"name":"exact","score":)").append(pass ? "1.0" : "0.0");
    body.append(R"(,"success":)").append(pass ? "true" : "false").append("}]}");
  }
  return body.append("]}");
}

// Polls `ready` until it holds or `timeout` passes; whether it held.
bool eventually(const std::function<bool()>& ready, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return ready();
}

// A sample's value in Prometheus text, e.g. `krino_alert_in_flight` or
// `krino_alert_attempts_total{outcome="delivered"}`; -1 when absent.
long long metric(unsigned short port, const std::string& sample) {
  const HttpResult got = api(port, "GET", "/metrics");
  const std::string line_start = "\n" + sample + " ";
  const std::size_t at = got.body().find(line_start);
  if (at == std::string::npos) return -1;
  return std::stoll(got.body().substr(at + line_start.size()));
}

// A webhook receiver (krino's own HTTP listener), recording every POST:
//   /ok     answers 200;
//   /flaky  answers 500 to a delivery's first attempt, 200 to the next;
//   /hang   holds the first request it gets until release() (its sender waits meanwhile), then 200.
class Receiver {
 public:
  struct Post {
    std::string path, delivery, run_id;
    unsigned answered = 0;
    bool signed_correctly = false;
    Clock::time_point arrived;
  };

  Receiver() {
    for (const char* path : {"/ok", "/flaky", "/hang"})
      router_.add(boost::beast::http::verb::post, path, [this](const krino::core::http_server::Request& request) { return receive(request); });
    krino::core::http_server::HttpServerOptions options;
    options.port = 0;
    server_ = std::make_unique<krino::core::http_server::HttpServer>(io_.context(), options, router_, [](const auto&) {});
    server_->start();
  }
  ~Receiver() {
    release();
    auto stopped = std::make_shared<std::promise<void>>();
    server_->stop([stopped] { stopped->set_value(); });
    stopped->get_future().wait_for(std::chrono::seconds(5));
  }

  std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(server_->port()) + path; }
  std::vector<Post> posts() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return posts_;
  }
  std::size_t count(const std::string& path) const {
    std::size_t n = 0;
    for (const Post& post : posts()) n += post.path == path ? 1 : 0;
    return n;
  }
  void release() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      released_ = true;
    }
    wake_.notify_all();
  }

 private:
  krino::core::http_server::Response receive(const krino::core::http_server::Request& request) {
    Post post;
    post.arrived = Clock::now();
    post.path = request.path;
    const std::string body = request.message.body();
    post.delivery = std::string(request.header("X-Krino-Delivery").value_or(""));
    const std::string timestamp(request.header("X-Krino-Timestamp").value_or(""));
    // As a receiver checks it: the raw body's bytes, keyed with the secret.
    post.signed_correctly = request.header("X-Krino-Signature").value_or("") == krino::core::hmac_sha256_hex(kSecret, timestamp + "." + body);
    post.run_id = std::string(krino::json::parse(body).at("runId").as_string());
    std::unique_lock<std::mutex> lock(mutex_);
    post.answered = 200;
    if (post.path == "/flaky" && seen_deliveries_.insert(post.delivery).second) post.answered = 500;
    const bool hold = post.path == "/hang" && !held_once_;
    if (hold) held_once_ = true;
    posts_.push_back(post);
    if (hold) wake_.wait_for(lock, std::chrono::seconds(30), [this] { return released_; });
    return krino::core::http_server::json_response(static_cast<krino::core::http_server::Status>(post.answered), "{}");
  }

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Post> posts_;
  std::set<std::string> seen_deliveries_;
  bool held_once_ = false;
  bool released_ = false;
  krino::core::http_server::Router router_;
  krino::core::IoService io_{1};
  std::unique_ptr<krino::core::http_server::HttpServer> server_;
};

std::string project_id(unsigned short port) {
  const boost::json::value projects = api_json(port, "/api/v1/projects");
  for (const auto& project : projects.as_array())
    if (project.at("name").as_string() == "replicas") return std::string(project.at("id").as_string());
  BOOST_FAIL("no project replicas");
  return {};
}

std::string add_webhook(unsigned short port, const std::string& project, const std::string& url) {
  const HttpResult made = api(port, "POST", "/api/v1/projects/" + project + "/alert-webhooks",
                              R"({"url":")" + url + R"(","secret":")" + kSecret + R"("})");
  BOOST_REQUIRE_MESSAGE(made.status() == 201u, made.body());
  return std::string(krino::json::parse(made.body()).at("id").as_string());
}

// A webhook's delivery log (its first page is all of it here), newest first.
boost::json::array deliveries(unsigned short port, const std::string& project, const std::string& webhook) {
  return api_json(port, "/api/v1/projects/" + project + "/alert-webhooks/" + webhook + "/deliveries?size=100").at("content").as_array();
}

bool all_delivered(const boost::json::array& log, std::size_t expected) {
  if (log.size() != expected) return false;
  for (const auto& delivery : log)
    if (delivery.at("status").as_string() != "DELIVERED") return false;
  return true;
}

// 30 items: the baseline passes them all; a regressed run fails 20 (the gate says FAIL).
constexpr int kGateItems = 30;

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_serve_replicas)

BOOST_AUTO_TEST_CASE(batches_sent_to_both_replicas_at_once_are_stored_once_with_dense_item_numbers) {
  Replicas replicas;
  constexpr int kBatches = 200, kPerBatch = 50, kItems = kBatches * kPerBatch;
  const std::string run = new_run(replicas.a.port(), "ingest");

  // Two clients go through the same batches at the same time, each sending batch k to the other
  // replica than the other client does (alternating with k): every batch reaches both replicas at
  // about the same moment with one Idempotency-Key. Client 0 sends every tenth batch once more.
  struct Sent {
    std::vector<unsigned> statuses;  // of every send, in order
    std::vector<int> stored;         // the batches this client's sends stored (201)
  };
  std::vector<Sent> sent(2);
  auto client = [&](int c) {
    std::vector<std::unique_ptr<TestHttpClient>> connections;
    connections.push_back(std::make_unique<TestHttpClient>(replicas.a.port()));
    connections.push_back(std::make_unique<TestHttpClient>(replicas.b.port()));
    for (int k = 0; k < kBatches; ++k) {
      const int replica = (k + c) % 2;
      HttpCall call;
      call.method = "POST";
      call.target = "/api/v1/runs/" + run + "/items";
      call.body = items_body(k * kPerBatch, kPerBatch);
      call.headers = {{"Idempotency-Key", "batch-" + std::to_string(k)}, {"Content-Type", "application/json"}};
      call.deadline = std::chrono::milliseconds(15'000);
      for (int time = 0; time < (c == 0 && k % 10 == 3 ? 2 : 1); ++time) {
        const unsigned status = connections[static_cast<std::size_t>(replica)]->send(call).status();
        sent[static_cast<std::size_t>(c)].statuses.push_back(status);
        if (status == 201u) sent[static_cast<std::size_t>(c)].stored.push_back(k);
      }
    }
  };
  std::thread first(client, 0), second(client, 1);
  first.join();
  second.join();
  end_run(replicas.b.port(), run, "SUCCESS");

  // Every send was taken (201 stored, 200 already stored), and each batch was stored by one send.
  std::map<int, int> stores;
  std::map<unsigned, int> refused;  // status -> how many sends got it
  for (const Sent& each : sent) {
    for (unsigned status : each.statuses)
      if (status != 200u && status != 201u) ++refused[status];
    for (int k : each.stored) ++stores[k];
  }
  BOOST_TEST(refused.empty(), "sends refused, e.g. " << (refused.empty() ? 0u : refused.begin()->first) << replicas.logs());
  BOOST_TEST(sent[0].statuses.size() + sent[1].statuses.size() == 2u * kBatches + kBatches / 10);
  BOOST_TEST(stores.size() == static_cast<std::size_t>(kBatches));
  for (const auto& [batch, times] : stores) BOOST_TEST(times == 1, "batch " << batch << " stored " << times << " times");

  int expected_passed = 0;
  for (int n = 0; n < kItems; ++n) expected_passed += n % 3 != 0 ? 1 : 0;
  std::string pages_seen_by_a;
  for (int replica : {0, 1}) {
    const unsigned short port = replicas[replica].port();
    std::map<int, long long> index_of;  // input n -> the item's index in the run
    std::set<long long> indexes;
    std::string pages;
    for (int page = 0;; ++page) {
      const boost::json::value answer = api_json(port, "/api/v1/runs/" + run + "?page=" + std::to_string(page) + "&size=1000");
      if (page == 0) {
        BOOST_TEST(answer.at("totalItems").as_int64() == kItems);
        BOOST_TEST(answer.at("passedItems").as_int64() == expected_passed);
        BOOST_TEST(answer.at("status").as_string() == "SUCCESS");
      }
      const auto& items = answer.at("items").at("content").as_array();
      pages += boost::json::serialize(items);
      for (const auto& item : items) {
        const long long index = item.at("index").as_int64();
        indexes.insert(index);
        const int n = static_cast<int>(item.at("inputs").at("n").as_int64());
        BOOST_TEST(index_of.emplace(n, index).second, "input " << n << " stored twice");
        BOOST_TEST(item.at("success").as_bool() == (n % 3 != 0));
      }
      if (answer.at("items").at("last").as_bool()) break;
      BOOST_REQUIRE(page < kItems / 1000 + 1);
    }
    // Dense: indexes 0..N-1, each once; every input once; each batch's items in a row, in order.
    BOOST_TEST(indexes.size() == static_cast<std::size_t>(kItems));
    BOOST_TEST((indexes.empty() || (*indexes.begin() == 0 && *indexes.rbegin() == kItems - 1)));
    BOOST_TEST(index_of.size() == static_cast<std::size_t>(kItems));
    bool batches_in_a_row = index_of.size() == static_cast<std::size_t>(kItems);
    for (int n = 0; batches_in_a_row && n < kItems; ++n)
      batches_in_a_row = index_of[n] - index_of[n - n % kPerBatch] == n % kPerBatch;
    BOOST_TEST(batches_in_a_row);
    if (replica == 0) pages_seen_by_a = pages;
    else BOOST_TEST((pages == pages_seen_by_a), "the replicas serve different items");
  }
  // The replicas' counters agree: between them, each batch stored once and every other send a repeat.
  long long stored_batches = 0, repeated = 0, items_stored = 0;
  for (int replica : {0, 1}) {
    stored_batches += metric(replicas[replica].port(), "krino_ingest_batches_total");
    repeated += metric(replicas[replica].port(), "krino_ingest_batches_repeated_total");
    items_stored += metric(replicas[replica].port(), "krino_ingest_items_total");
  }
  BOOST_TEST(stored_batches == kBatches);
  BOOST_TEST(repeated == kBatches + kBatches / 10);
  BOOST_TEST(items_stored == kItems);
  BOOST_TEST(replicas.a.stop(SIGTERM) == 0, replicas.logs());
  BOOST_TEST(replicas.b.stop(SIGTERM) == 0, replicas.logs());
}

BOOST_AUTO_TEST_CASE(each_regressed_run_is_judged_and_alerted_once_by_one_of_two_replicas) {
  Replicas replicas;
  Receiver receiver;
  const std::string baseline = new_run(replicas.a.port(), "qa");
  const std::string project = project_id(replicas.a.port());
  const std::string ok = add_webhook(replicas.a.port(), project, receiver.url("/ok"));
  const std::string flaky = add_webhook(replicas.b.port(), project, receiver.url("/flaky"));

  // The baseline passes everything and ends SUCCESS on A; then four runs regress and end FAILED,
  // on B and A in turn (so each is judged against the baseline, the newest SUCCESS run).
  constexpr int kRegressed = 4;
  std::vector<std::string> regressed;
  for (int i = 0; i < kRegressed; ++i) regressed.push_back(new_run(replicas[i % 2].port(), "qa"));
  BOOST_REQUIRE_EQUAL(api(replicas.b.port(), "POST", "/api/v1/runs/" + baseline + "/items", items_body(0, kGateItems, 0)).status(), 201u);
  end_run(replicas.a.port(), baseline, "SUCCESS");
  for (int i = 0; i < kRegressed; ++i) {
    const std::string& run = regressed[static_cast<std::size_t>(i)];
    BOOST_REQUIRE_EQUAL(api(replicas[i % 2].port(), "POST", "/api/v1/runs/" + run + "/items", items_body(0, kGateItems, 20)).status(), 201u);
    end_run(replicas[(i + 1) % 2].port(), run, "FAILED");
  }

  BOOST_REQUIRE_MESSAGE(eventually(
                            [&] {
                              return all_delivered(deliveries(replicas.a.port(), project, ok), kRegressed) &&
                                     all_delivered(deliveries(replicas.b.port(), project, flaky), kRegressed);
                            },
                            std::chrono::seconds(30)),
                        "the alerts were not all delivered" << replicas.logs());
  // A grace period of many polls by both workers: nothing more arrives.
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));

  const std::vector<Receiver::Post> posts = receiver.posts();
  std::map<std::string, std::vector<unsigned>> answers_by_delivery;  // "/path delivery" -> the statuses answered
  std::map<std::string, std::set<std::string>> deliveries_by_run;    // "/path run" -> its delivery ids
  for (const Receiver::Post& post : posts) {
    BOOST_TEST(post.signed_correctly);
    BOOST_TEST(post.run_id != baseline);
    answers_by_delivery[post.path + " " + post.delivery].push_back(post.answered);
    deliveries_by_run[post.path + " " + post.run_id].insert(post.delivery);
  }
  BOOST_TEST(receiver.count("/ok") == static_cast<std::size_t>(kRegressed));
  BOOST_TEST(receiver.count("/flaky") == 2u * kRegressed);  // each failed once, then delivered
  BOOST_TEST(answers_by_delivery.size() == 2u * kRegressed);
  for (const auto& [delivery, answers] : answers_by_delivery) {
    const std::vector<unsigned> expected = delivery.rfind("/ok", 0) == 0 ? std::vector<unsigned>{200} : std::vector<unsigned>{500, 200};
    BOOST_TEST((answers == expected), delivery);
  }
  for (const std::string& run : regressed) {
    BOOST_TEST(deliveries_by_run["/ok " + run].size() == 1u);
    BOOST_TEST(deliveries_by_run["/flaky " + run].size() == 1u);
  }

  // The delivery log says the same through either replica.
  for (int replica : {0, 1}) {
    for (const auto& delivery : deliveries(replicas[replica].port(), project, ok)) {
      BOOST_TEST(delivery.at("status").as_string() == "DELIVERED");
      BOOST_TEST(delivery.at("attempts").as_int64() == 1);
      BOOST_TEST(delivery.at("attemptLog").as_array().size() == 1u);
    }
    for (const auto& delivery : deliveries(replicas[replica].port(), project, flaky)) {
      BOOST_TEST(delivery.at("status").as_string() == "DELIVERED");
      BOOST_TEST(delivery.at("attempts").as_int64() == 2);
      const auto& log = delivery.at("attemptLog").as_array();
      BOOST_REQUIRE_EQUAL(log.size(), 2u);
      BOOST_TEST(log.at(0).at("statusCode").as_int64() == 500);
      BOOST_TEST(log.at(1).at("statusCode").as_int64() == 200);
    }
  }

  // Each ended run was judged by exactly one replica, and the work was all done.
  long long checks = 0, alerts = 0, delivered = 0, retried = 0;
  for (int replica : {0, 1}) {
    const unsigned short port = replicas[replica].port();
    checks += metric(port, "krino_alert_checks_total");
    alerts += metric(port, "krino_alerts_total");
    delivered += metric(port, "krino_alert_attempts_total{outcome=\"delivered\"}");
    retried += metric(port, "krino_alert_attempts_total{outcome=\"retry\"}");
  }
  BOOST_TEST(checks == kRegressed + 1);
  BOOST_TEST(alerts == kRegressed);
  BOOST_TEST(delivered == 2 * kRegressed);
  BOOST_TEST(retried == kRegressed);
}

BOOST_AUTO_TEST_CASE(a_replica_killed_while_it_holds_a_delivery_hands_it_on_when_its_lease_runs_out) {
  // A lease of 6 s, longer than a POST may take (5 s): the holder is killed well before either ends.
  constexpr auto kLease = std::chrono::milliseconds(6000);
  Replicas replicas(std::to_string(kLease.count()), "5000");
  Receiver receiver;
  const std::string baseline = new_run(replicas.a.port(), "qa");
  const std::string project = project_id(replicas.a.port());
  const std::string hang = add_webhook(replicas.a.port(), project, receiver.url("/hang"));
  const std::string candidate = new_run(replicas.b.port(), "qa");
  BOOST_REQUIRE_EQUAL(api(replicas.a.port(), "POST", "/api/v1/runs/" + baseline + "/items", items_body(0, kGateItems, 0)).status(), 201u);
  BOOST_REQUIRE_EQUAL(api(replicas.b.port(), "POST", "/api/v1/runs/" + candidate + "/items", items_body(0, kGateItems, 20)).status(), 201u);
  end_run(replicas.a.port(), baseline, "SUCCESS");
  end_run(replicas.b.port(), candidate, "SUCCESS");

  // The first POST hangs; the replica that sent it says so on /metrics.
  BOOST_REQUIRE_MESSAGE(eventually([&] { return receiver.count("/hang") == 1u; }, std::chrono::seconds(20)), "no alert came" << replicas.logs());
  int holder = -1;
  BOOST_REQUIRE(eventually(
      [&] {
        for (int replica : {0, 1})
          if (metric(replicas[replica].port(), "krino_alert_in_flight") == 1) holder = replica;
        return holder >= 0;
      },
      std::chrono::seconds(5)));
  const int survivor = 1 - holder;
  BOOST_TEST(replicas[holder].stop(SIGKILL) == 128 + SIGKILL);

  BOOST_REQUIRE_MESSAGE(
      eventually([&] { return all_delivered(deliveries(replicas[survivor].port(), project, hang), 1); }, kLease + std::chrono::seconds(15)),
      "the other replica never took the delivery over" << replicas.logs());
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));  // a grace period: nothing more arrives

  const std::vector<Receiver::Post> posts = receiver.posts();
  BOOST_REQUIRE_EQUAL(posts.size(), 2u);  // the killed replica's attempt, and the survivor's
  BOOST_TEST(posts[0].delivery == posts[1].delivery);
  BOOST_TEST(posts[1].run_id == candidate);
  BOOST_TEST(posts[1].signed_correctly);
  // The survivor waited for the lease: the claim came before the first POST, so the second POST
  // cannot arrive sooner than a lease after the first (less the moment between claim and POST).
  const auto gap = std::chrono::duration_cast<std::chrono::milliseconds>(posts[1].arrived - posts[0].arrived);
  BOOST_TEST(gap.count() >= kLease.count() - 250, "taken over after " << gap.count() << " ms");

  const boost::json::array log = deliveries(replicas[survivor].port(), project, hang);
  BOOST_REQUIRE_EQUAL(log.size(), 1u);
  const auto& delivery = log.at(0);
  BOOST_TEST(delivery.at("id").as_string() == posts[1].delivery);
  BOOST_TEST(delivery.at("attempts").as_int64() == 1);  // the killed replica never recorded its attempt
  BOOST_REQUIRE_EQUAL(delivery.at("attemptLog").as_array().size(), 1u);
  BOOST_TEST(delivery.at("attemptLog").at(0).at("statusCode").as_int64() == 200);
  BOOST_TEST(metric(replicas[survivor].port(), "krino_alert_attempts_total{outcome=\"delivered\"}") == 1);
}

BOOST_AUTO_TEST_SUITE_END()
