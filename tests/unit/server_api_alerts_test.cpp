// Regression-alert webhooks over loopback HTTP on both backends: the CRUD routes (the secret is
// write-only, other tenants see nothing), and deliveries by the AlertDispatcher to a real local
// receiver that checks both signatures and the timestamp, one that is down and comes up (retries
// with backoff, shown in the delivery log), and one that never comes back (DEAD, then redelivered).
#include "krino/core/common/content_digest.hpp"
#include "krino/core/server/alert_dispatcher.hpp"
#include "krino/core/server/results_server.hpp"
#include "krino/core/server/webhook_signature.hpp"

#include "server_api_fixture.hpp"

#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <future>
#include <mutex>
#include <thread>

using namespace krino::test;

namespace {

using Headers = std::vector<std::pair<std::string, std::string>>;
using ApiResult = krino::fake_llm::test::HttpResult;

Headers alert_bearer(const std::string& key) { return {{"Authorization", "Bearer " + key}}; }

boost::json::value alert_json(const ApiResult& result) { return krino::json::parse(result.body()); }

// A port nothing listens on (yet): bound by the system, then released.
unsigned short free_port() {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return acceptor.local_endpoint().port();
}

// A webhook receiver: krino's own HTTP listener with one route that keeps what it was sent.
class Receiver {
 public:
  struct Received {
    std::map<std::string, std::string> headers;  // names in lower case
    std::string body;
  };

  explicit Receiver(unsigned short port = 0, unsigned status = 200) : status_(status) {
    router_.add(boost::beast::http::verb::post, "/hook", [this](const krino::core::http_server::Request& request) {
      Received got;
      for (const auto& field : request.message) {
        std::string name(field.name_string());
        for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        got.headers[name] = std::string(field.value());
      }
      got.body = request.message.body();
      const std::lock_guard<std::mutex> lock(mutex_);
      received_.push_back(std::move(got));
      return krino::core::http_server::json_response(static_cast<krino::core::http_server::Status>(status_), "{}");
    });
    krino::core::http_server::HttpServerOptions options;
    options.port = port;
    server_ = std::make_unique<krino::core::http_server::HttpServer>(io_.context(), options, router_);
    server_->start();
  }
  ~Receiver() {
    auto stopped = std::make_shared<std::promise<void>>();
    server_->stop([stopped] { stopped->set_value(); });
    stopped->get_future().wait_for(std::chrono::seconds(5));
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(server_->port()) + "/hook"; }
  std::vector<Received> received() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return received_;
  }

 private:
  unsigned status_;
  mutable std::mutex mutex_;
  std::vector<Received> received_;
  krino::core::http_server::Router router_;
  krino::core::IoService io_{1};
  std::unique_ptr<krino::core::http_server::HttpServer> server_;
};

// Settings a test can wait for: a quick poll and a backoff of 100 ms, 200 ms, 400 ms, ...
krino::core::server::AlertOptions quick_alerts(int max_attempts) {
  krino::core::server::AlertOptions options;
  options.poll_interval = std::chrono::milliseconds(20);
  options.retry = krino::core::RetryPolicy{max_attempts, std::chrono::milliseconds(100), std::chrono::milliseconds(400),
                                           std::chrono::milliseconds(400)};
  options.request_timeout = std::chrono::milliseconds(2000);
  options.lease = std::chrono::milliseconds(30'000);
  return options;
}

template <class Backend>
struct AlertFixture : ServerFixture<Backend> {
  // The project "shop" (made by a first run) and its id.
  std::string project_id() {
    this->new_run();
    const boost::json::value projects = alert_json(this->call("GET", "/api/v1/projects"));
    for (const auto& project : projects.as_array())
      if (project.at("name").as_string() == "shop") return std::string(project.at("id").as_string());
    BOOST_FAIL("no project shop");
    return {};
  }

  std::string add_webhook(const std::string& project, const std::string& body) {
    const ApiResult made = this->call("POST", "/api/v1/projects/" + project + "/alert-webhooks", body);
    BOOST_REQUIRE_EQUAL(made.status(), 201u);
    return std::string(alert_json(made).at("id").as_string());
  }

  // Starts the worker; every run it checks "regressed", with a payload naming the run.
  void start_alerts(krino::core::server::AlertOptions options) {
    dispatcher = std::make_unique<krino::core::server::AlertDispatcher>(
        *this->store, alert_io.context(),
        [](const krino::core::store::AlertCheck& check) -> std::optional<std::string> {
          return std::string(R"({"runId":")") + check.run_id + R"(","passRateDelta":-0.25})";
        },
        options);
    dispatcher->start();
  }

  std::string end_run() {
    const std::string run = this->new_run();
    BOOST_REQUIRE_EQUAL(this->call("PATCH", "/api/v1/runs/" + run, R"({"status":"SUCCESS"})").status(), 200u);
    return run;
  }

  // The first delivery of the webhook, once `ready` holds of it (waits up to 15 s).
  boost::json::object wait_for_delivery(const std::string& project, const std::string& webhook,
                                        const std::function<bool(const boost::json::object&)>& ready) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    boost::json::object last;
    while (std::chrono::steady_clock::now() < deadline) {
      const ApiResult page = this->call("GET", "/api/v1/projects/" + project + "/alert-webhooks/" + webhook + "/deliveries");
      BOOST_REQUIRE_EQUAL(page.status(), 200u);
      const boost::json::value body = alert_json(page);
      const auto& content = body.at("content").as_array();
      if (!content.empty()) {
        last = content.at(0).as_object();
        if (ready(last)) return last;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    BOOST_FAIL("the delivery never got there; last seen: " << boost::json::serialize(last));
    return last;
  }

  krino::core::IoService alert_io{1};
  std::unique_ptr<krino::core::server::AlertDispatcher> dispatcher;  // stopped before the store goes
  ~AlertFixture() {
    if (dispatcher) dispatcher->stop();
  }
};

bool has_status(const boost::json::object& delivery, const char* status) { return delivery.at("status").as_string() == status; }

std::int64_t attempt_ms(const boost::json::value& attempt) {
  // "2026-05-01T12:34:56.789Z": the milliseconds of the day are enough to compare nearby attempts.
  const std::string at(attempt.at("at").as_string());
  const int h = std::stoi(at.substr(11, 2)), m = std::stoi(at.substr(14, 2)), s = std::stoi(at.substr(17, 2));
  return ((h * 60 + m) * 60 + s) * 1000 + std::stoi(at.substr(20, 3));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(server_api_alerts)

BOOST_AUTO_TEST_CASE(hmac_sha256_matches_rfc_4231) {
  BOOST_TEST(krino::core::hmac_sha256_hex("Jefe", "what do ya want for nothing?") ==
             "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  BOOST_TEST(krino::core::server::krino_signature("Jefe", "nothing?", 42) ==
             krino::core::hmac_sha256_hex("Jefe", "42.nothing?"));
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(webhooks_are_managed_per_project_and_never_show_their_secret, Backend, Backends, AlertFixture<Backend>) {
  const std::string project = this->project_id();
  const std::string base = "/api/v1/projects/" + project + "/alert-webhooks";
  const ApiResult made = this->call("POST", base, R"({"url":"https://hooks.example/alert?x=1","secret":"top-secret-value"})");
  BOOST_REQUIRE_EQUAL(made.status(), 201u);
  BOOST_TEST(made.body().find("top-secret-value") == std::string::npos);
  const auto webhook = alert_json(made).as_object();
  const std::string id(webhook.at("id").as_string());
  BOOST_TEST(std::string(made.response[boost::beast::http::field::location]) == base + "/" + id);
  BOOST_TEST(webhook.at("url").as_string() == "https://hooks.example/alert?x=1");
  BOOST_TEST(webhook.at("hasSecret").as_bool());
  BOOST_TEST(webhook.at("enabled").as_bool());
  BOOST_TEST(webhook.at("projectId").as_string() == project);

  const ApiResult listed = this->call("GET", base);
  BOOST_TEST(listed.status() == 200u);
  BOOST_TEST(alert_json(listed).as_array().size() == 1u);
  BOOST_TEST(listed.body().find("top-secret-value") == std::string::npos);
  BOOST_TEST(this->call("GET", base + "/" + id).status() == 200u);

  // PUT without a secret keeps it; null clears it.
  const ApiResult kept = this->call("PUT", base + "/" + id, R"({"url":"http://127.0.0.1:9/hook","enabled":false})");
  BOOST_REQUIRE_EQUAL(kept.status(), 200u);
  BOOST_TEST(alert_json(kept).at("hasSecret").as_bool());
  BOOST_TEST(!alert_json(kept).at("enabled").as_bool());
  BOOST_TEST(alert_json(kept).at("url").as_string() == "http://127.0.0.1:9/hook");
  const ApiResult cleared = this->call("PUT", base + "/" + id, R"({"url":"http://127.0.0.1:9/hook","secret":null})");
  BOOST_TEST(!alert_json(cleared).at("hasSecret").as_bool());
  BOOST_TEST(alert_json(cleared).at("enabled").as_bool());

  // Bad bodies name the field.
  for (const auto& [body, field] : std::vector<std::pair<std::string, std::string>>{
           {R"({"secret":"s"})", "url"},
           {R"({"url":"ftp://files.example/x"})", "url"},
           {R"({"url":"http://user:pw@hooks.example/"})", "url"},
           {R"({"url":42})", "url"},
           {R"({"url":"http://h/","enabled":"yes"})", "enabled"},
           {R"({"url":"http://h/","secret":""})", "secret"},
           {R"({"url":"http://h/","secret":7})", "secret"},
           {R"([1])", "body"},
           {R"({"url":"http://h/","url":"http://i/"})", "body"}}) {
    BOOST_TEST_CONTEXT(body) {
      const ApiResult refused = this->call("POST", base, body);
      BOOST_TEST(refused.status() == 400u);
      BOOST_TEST(std::string(alert_json(refused).at("message").as_string()).rfind(field, 0) == 0u, refused.body());
      BOOST_TEST(this->call("PUT", base + "/" + id, body).status() == 400u);
    }
  }

  // Unknown ids are 404, whatever their form.
  const std::string nobody = "0190a0b0-c0d0-7000-8000-000000000000";
  BOOST_TEST(this->call("GET", "/api/v1/projects/" + nobody + "/alert-webhooks").status() == 404u);
  BOOST_TEST(this->call("POST", "/api/v1/projects/" + nobody + "/alert-webhooks", R"({"url":"http://h/"})").status() == 404u);
  BOOST_TEST(this->call("GET", "/api/v1/projects/shop/alert-webhooks").status() == 404u);
  BOOST_TEST(this->call("GET", base + "/" + nobody).status() == 404u);
  BOOST_TEST(this->call("GET", base + "/not-an-id").status() == 404u);
  BOOST_TEST(this->call("PUT", base + "/" + nobody, R"({"url":"http://h/"})").status() == 404u);
  BOOST_TEST(this->call("GET", base + "/" + nobody + "/deliveries").status() == 404u);
  BOOST_TEST(this->call("POST", base + "/" + id + "/deliveries/" + nobody + "/retry").status() == 404u);
  BOOST_TEST(this->call("GET", base + "/" + id + "/deliveries?size=0").status() == 400u);
  const ApiResult empty_log = this->call("GET", base + "/" + id + "/deliveries");
  BOOST_TEST(empty_log.status() == 200u);
  BOOST_TEST(alert_json(empty_log).at("totalElements").as_int64() == 0);

  BOOST_TEST(this->call("DELETE", base + "/" + id).status() == 204u);
  BOOST_TEST(this->call("DELETE", base + "/" + id).status() == 404u);
  BOOST_TEST(this->call("GET", base + "/" + id).status() == 404u);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(webhook_writes_need_an_editor_and_other_tenants_see_nothing, Backend, Backends, AlertFixture<Backend>) {
  const ApiResult root_made = this->call("POST", "/api/v1/api-keys", R"({"name":"root","role":"ADMIN"})");
  const std::string root(alert_json(root_made).at("key").as_string());
  auto key = [&](const std::string& role, const std::string& tenant) {
    const std::string body = R"({"name":"k","role":")" + role + R"(","tenantId":")" + tenant + R"("})";
    return std::string(alert_json(this->call("POST", "/api/v1/api-keys", body, alert_bearer(root))).at("key").as_string());
  };
  const std::string a_editor = key("EDITOR", "tenant-a");
  const std::string a_viewer = key("VIEWER", "tenant-a");
  const std::string b_editor = key("EDITOR", "tenant-b");

  BOOST_REQUIRE_EQUAL(this->call("POST", "/api/v1/projects/shop/runs", R"({"experimentName":"qa"})", alert_bearer(a_editor)).status(), 201u);
  const auto projects = alert_json(this->call("GET", "/api/v1/projects", "", alert_bearer(a_editor))).as_array();
  BOOST_REQUIRE_EQUAL(projects.size(), 1u);
  const std::string project(projects.at(0).at("id").as_string());  // tenant A's own "shop"
  const std::string base = "/api/v1/projects/" + project + "/alert-webhooks";

  BOOST_TEST(this->call("POST", base, R"({"url":"http://h/"})").status() == 401u);
  BOOST_TEST(this->call("POST", base, R"({"url":"http://h/"})", alert_bearer(a_viewer)).status() == 403u);
  const ApiResult made = this->call("POST", base, R"({"url":"http://h/","secret":"k"})", alert_bearer(a_editor));
  BOOST_REQUIRE_EQUAL(made.status(), 201u);
  BOOST_TEST(alert_json(made).at("tenantId").as_string() == "tenant-a");
  const std::string hook = base + "/" + std::string(alert_json(made).at("id").as_string());
  // A webhook's URL may be a credential: reading it needs an EDITOR too.
  BOOST_TEST(this->call("GET", hook, "", alert_bearer(a_viewer)).status() == 403u);
  BOOST_TEST(this->call("GET", hook, "").status() == 401u);
  BOOST_TEST(this->call("GET", base, "", alert_bearer(a_viewer)).status() == 403u);
  BOOST_TEST(this->call("GET", hook + "/deliveries", "", alert_bearer(a_viewer)).status() == 403u);
  BOOST_TEST(this->call("GET", hook, "", alert_bearer(a_editor)).status() == 200u);
  BOOST_TEST(this->call("PUT", hook, R"({"url":"http://h/"})", alert_bearer(a_viewer)).status() == 403u);

  // Tenant B: the project does not exist for it, nor anything under it.
  BOOST_TEST(this->call("GET", base, "", alert_bearer(b_editor)).status() == 404u);
  BOOST_TEST(this->call("POST", base, R"({"url":"http://h/"})", alert_bearer(b_editor)).status() == 404u);
  BOOST_TEST(this->call("GET", hook, "", alert_bearer(b_editor)).status() == 404u);
  BOOST_TEST(this->call("PUT", hook, R"({"url":"http://h/"})", alert_bearer(b_editor)).status() == 404u);
  BOOST_TEST(this->call("GET", hook + "/deliveries", "", alert_bearer(b_editor)).status() == 404u);
  BOOST_TEST(this->call("DELETE", hook, "", alert_bearer(b_editor)).status() == 404u);
  BOOST_TEST(this->call("DELETE", hook, "", alert_bearer(a_editor)).status() == 204u);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(a_receiver_gets_the_alert_signed_and_timestamped, Backend, Backends, AlertFixture<Backend>) {
  Receiver receiver;
  const std::string project = this->project_id();
  const std::string signed_hook = this->add_webhook(project, R"({"url":")" + receiver.url() + R"(","secret":"s3cr\u00e9t"})");
  const std::string unsigned_hook = this->add_webhook(project, R"({"url":")" + receiver.url() + R"("})");
  this->add_webhook(project, R"({"url":")" + receiver.url() + R"(","enabled":false})");
  this->start_alerts(quick_alerts(3));
  const std::string run = this->end_run();

  const auto delivered = this->wait_for_delivery(project, signed_hook, [](const auto& d) { return has_status(d, "DELIVERED"); });
  this->wait_for_delivery(project, unsigned_hook, [](const auto& d) { return has_status(d, "DELIVERED"); });
  BOOST_TEST(delivered.at("runId").as_string() == run);
  BOOST_TEST(delivered.at("attempts").as_int64() == 1);
  BOOST_TEST(delivered.at("lastStatusCode").as_int64() == 200);
  BOOST_TEST(delivered.at("attemptLog").as_array().size() == 1u);
  BOOST_TEST(delivered.at("payload").at("runId").as_string() == run);

  const auto received = receiver.received();
  BOOST_REQUIRE_EQUAL(received.size(), 2u);  // the disabled webhook got nothing
  const std::int64_t now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  int signed_seen = 0;
  for (const Receiver::Received& got : received) {
    BOOST_TEST(got.body == R"({"runId":")" + run + R"(","passRateDelta":-0.25})");
    BOOST_TEST(got.headers.at("content-type") == "application/json");
    BOOST_TEST(got.headers.count("x-krino-delivery") == 1u);
    const std::int64_t timestamp = std::stoll(got.headers.at("x-krino-timestamp"));
    BOOST_TEST(std::abs(now - timestamp) <= 300);  // what a receiver accepts
    if (got.headers.count("x-dokimos-signature") == 0) {
      BOOST_TEST(got.headers.count("x-krino-signature") == 0u);
      continue;
    }
    ++signed_seen;
    // As a receiver checks them: the secret's UTF-8 bytes, the raw body bytes.
    BOOST_TEST(got.headers.at("x-dokimos-signature") == krino::core::hmac_sha256_hex("s3cr\xc3\xa9t", got.body));
    BOOST_TEST(got.headers.at("x-krino-signature") ==
               krino::core::hmac_sha256_hex("s3cr\xc3\xa9t", got.headers.at("x-krino-timestamp") + "." + got.body));
    BOOST_TEST(got.headers.at("x-krino-delivery") == delivered.at("id").as_string());
  }
  BOOST_TEST(signed_seen == 1);
  const std::string metrics = this->dispatcher->metrics_text();
  BOOST_TEST(metrics.find("krino_alert_attempts_total{outcome=\"delivered\"} 2") != std::string::npos, metrics);
  BOOST_TEST(metrics.find("krino_alerts_total 1") != std::string::npos, metrics);
  BOOST_TEST(metrics.find("krino_alert_in_flight 0\n") != std::string::npos, metrics);  // nothing awaits an answer now
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(a_receiver_that_is_down_gets_retries_with_backoff_until_it_is_up, Backend, Backends, AlertFixture<Backend>) {
  const unsigned short port = free_port();
  const std::string project = this->project_id();
  const std::string hook =
      this->add_webhook(project, R"({"url":"http://127.0.0.1:)" + std::to_string(port) + R"(/hook","secret":"k"})");
  this->start_alerts(quick_alerts(8));
  this->end_run();
  // Refused twice (100 ms, then 200 ms apart), then the receiver comes up.
  this->wait_for_delivery(project, hook, [](const auto& d) { return d.at("attempts").as_int64() >= 2; });
  Receiver receiver(port);
  const auto delivered = this->wait_for_delivery(project, hook, [](const auto& d) { return has_status(d, "DELIVERED"); });
  const auto& log = delivered.at("attemptLog").as_array();
  BOOST_REQUIRE_GE(log.size(), 3u);
  for (std::size_t i = 0; i + 1 < log.size(); ++i) {
    BOOST_TEST(log[i].at("statusCode").is_null());
    BOOST_TEST(!log[i].at("error").as_string().empty());
    BOOST_TEST(log[i].at("number").as_int64() == static_cast<std::int64_t>(i + 1));
  }
  BOOST_TEST(log.back().at("statusCode").as_int64() == 200);
  BOOST_TEST(delivered.at("lastError").is_null());
  BOOST_TEST(attempt_ms(log[1]) - attempt_ms(log[0]) >= 100);
  BOOST_TEST(attempt_ms(log[2]) - attempt_ms(log[1]) >= 200);
  BOOST_TEST(receiver.received().size() == 1u);
}

BOOST_FIXTURE_TEST_CASE_TEMPLATE(a_receiver_that_never_answers_well_leaves_a_dead_delivery_that_can_be_retried, Backend, Backends,
                                 AlertFixture<Backend>) {
  const std::string project = this->project_id();
  std::string hook;
  std::string delivery_id;
  {
    Receiver failing(0, 503);
    hook = this->add_webhook(project, R"({"url":")" + failing.url() + R"("})");
    this->start_alerts(quick_alerts(3));
    this->end_run();
    const auto dead = this->wait_for_delivery(project, hook, [](const auto& d) { return has_status(d, "DEAD"); });
    BOOST_TEST(dead.at("attempts").as_int64() == 3);
    BOOST_TEST(dead.at("lastStatusCode").as_int64() == 503);
    BOOST_TEST(dead.at("lastError").as_string() == "HTTP 503");
    BOOST_TEST(dead.at("nextAttemptAt").is_null());
    BOOST_TEST(failing.received().size() == 3u);
    delivery_id = std::string(dead.at("id").as_string());
  }
  // The receiver is fixed (here: a new one); the webhook is pointed at it and the dead one retried.
  Receiver fixed;
  const std::string base = "/api/v1/projects/" + project + "/alert-webhooks/" + hook;
  BOOST_REQUIRE_EQUAL(this->call("PUT", base, R"({"url":")" + fixed.url() + R"("})").status(), 200u);
  const ApiResult retried = this->call("POST", base + "/deliveries/" + delivery_id + "/retry");
  BOOST_REQUIRE_EQUAL(retried.status(), 200u);
  BOOST_TEST(alert_json(retried).at("status").as_string() == "PENDING");
  const auto delivered = this->wait_for_delivery(project, hook, [](const auto& d) { return has_status(d, "DELIVERED"); });
  BOOST_TEST(delivered.at("attemptLog").as_array().size() == 4u);
  BOOST_TEST(delivered.at("attempts").as_int64() == 1);
  BOOST_TEST(fixed.received().size() == 1u);
  BOOST_TEST(this->call("POST", base + "/deliveries/" + delivery_id + "/retry").status() == 409u);
  const ApiResult page = this->call("GET", base + "/deliveries?page=0&size=1");
  BOOST_TEST(alert_json(page).at("totalElements").as_int64() == 1);
  BOOST_TEST(alert_json(page).at("last").as_bool());
}

BOOST_AUTO_TEST_CASE(the_backoff_doubles_up_to_its_ceiling) {
  const krino::core::RetryPolicy retry{8, std::chrono::milliseconds(10'000), std::chrono::milliseconds(3'600'000), {}};
  BOOST_TEST(krino::core::server::alert_retry_delay(retry, 1).count() == 10'000);
  BOOST_TEST(krino::core::server::alert_retry_delay(retry, 2).count() == 20'000);
  BOOST_TEST(krino::core::server::alert_retry_delay(retry, 7).count() == 640'000);
  BOOST_TEST(krino::core::server::alert_retry_delay(retry, 12).count() == 3'600'000);
  BOOST_TEST(krino::core::server::alert_retry_delay(retry, 1000).count() == 3'600'000);
}

// The whole server, as `krino serve` runs it, with the real gate deciding: a run that regresses
// against the run before it alerts each enabled webhook exactly once; a run that does not, none.
template <class Backend>
struct WholeServer {
  WholeServer() {
    krino::core::server::ResultsServerOptions options;
    options.http.port = 0;
    if constexpr (std::is_same_v<Backend, OnSqlite>) options.database = (backend.scratch / "krino.db").string();
    else options.database = cluster().new_database();
    options.alerts = quick_alerts(3);
    server = std::make_unique<krino::core::server::ResultsServer>(options);
    server->start();
  }
  ~WholeServer() { server->stop(std::chrono::seconds(10)); }

  ApiResult call(const std::string& method, const std::string& target, const std::string& body = "") {
    krino::fake_llm::test::HttpCall request;
    request.method = method;
    request.target = target;
    request.body = body;
    request.headers.emplace_back("Content-Type", "application/json");
    return krino::fake_llm::test::http_call(server->port(), request);
  }

  // A run of shop/qa with 20 items, the first `failing` of which fail; ended SUCCESS.
  std::string run_with_failures(int failing) {
    const ApiResult created = call("POST", "/api/v1/projects/shop/runs", R"({"experimentName":"qa"})");
    BOOST_REQUIRE_EQUAL(created.status(), 201u);
    const std::string run(alert_json(created).at("runId").as_string());
    std::string items = R"({"items":[)";
    for (int i = 0; i < 20; ++i) {
      const bool pass = i >= failing;
      if (i > 0) items += ',';
      items += R"({"datasetItemId":"case-)" + std::to_string(i) + R"(","success":)" + (pass ? "true" : "false") +
               R"(,"evalResults":[{"name":"exact","score":)" + (pass ? "1" : "0") + R"(,"threshold":0.5,"success":)" +
               (pass ? "true" : "false") + "}]}";
    }
    items += "]}";
    BOOST_REQUIRE_EQUAL(call("POST", "/api/v1/runs/" + run + "/items", items).status(), 201u);
    BOOST_REQUIRE_EQUAL(call("PATCH", "/api/v1/runs/" + run, R"({"status":"SUCCESS"})").status(), 200u);
    return run;
  }

  // Waits until the server has judged `runs` ended runs.
  void wait_for_checks(int runs) {
    const std::string wanted = "krino_alert_checks_total " + std::to_string(runs) + "\n";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    while (std::chrono::steady_clock::now() < deadline) {
      if (call("GET", "/metrics").body().find(wanted) != std::string::npos) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    BOOST_FAIL("the server did not judge " << runs << " runs: " << call("GET", "/metrics").body());
  }

  Backend backend;
  std::unique_ptr<krino::core::server::ResultsServer> server;
};

BOOST_AUTO_TEST_CASE_TEMPLATE(a_regressed_run_alerts_each_webhook_once_and_a_passing_one_none, Backend, Backends) {
  Receiver receiver;
  WholeServer<Backend> whole;
  const std::string baseline = whole.run_with_failures(0);
  const boost::json::value projects = alert_json(whole.call("GET", "/api/v1/projects"));
  const std::string project(projects.at(0).at("id").as_string());
  const std::string base = "/api/v1/projects/" + project + "/alert-webhooks";
  std::vector<std::string> hooks;
  for (const std::string& body : {R"({"url":")" + receiver.url() + R"(?n=1","secret":"k"})", R"({"url":")" + receiver.url() + R"(?n=2"})"}) {
    const ApiResult made = whole.call("POST", base, body);
    BOOST_REQUIRE_EQUAL(made.status(), 201u);
    hooks.emplace_back(alert_json(made).at("id").as_string());
  }
  whole.call("POST", base, R"({"url":")" + receiver.url() + R"(?n=3","enabled":false})");

  const std::string regressed = whole.run_with_failures(12);  // 12 of 20 pass -> fail: McNemar says significant
  whole.wait_for_checks(1);
  const std::string recovered = whole.run_with_failures(0);   // against the regressed run: better, no alert
  whole.wait_for_checks(2);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (receiver.received().size() < 2 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // time for anything extra to arrive

  const auto received = receiver.received();
  BOOST_REQUIRE_EQUAL(received.size(), 2u);
  for (const Receiver::Received& got : received) {
    const boost::json::value payload = krino::json::parse(got.body);
    BOOST_TEST(payload.at("projectName").as_string() == "shop");
    BOOST_TEST(payload.at("experimentName").as_string() == "qa");
    BOOST_TEST(payload.at("runId").as_string() == regressed);
    BOOST_TEST(payload.at("baselineRunId").as_string() == baseline);
    BOOST_TEST(payload.at("baselinePassRate").as_double() == 1.0);
    BOOST_TEST(payload.at("candidatePassRate").as_double() == 0.4);
    BOOST_TEST(payload.at("passRateDelta").as_double() == -0.6);
    BOOST_TEST(payload.at("regressedCaseCount").as_int64() == 12);
    BOOST_TEST(payload.at("gateStatus").as_string() == "FAIL");
    BOOST_TEST(!payload.at("experimentId").as_string().empty());
  }
  // The alert says what the gate says.
  const ApiResult gate = whole.call("POST", "/api/v1/experiments/" + std::string(krino::json::parse(received[0].body).at("experimentId").as_string()) + "/gate",
                                    R"({"candidateRunId":")" + regressed + R"("})");
  BOOST_REQUIRE_EQUAL(gate.status(), 200u);
  BOOST_TEST(alert_json(gate).at("status").as_string() == "FAIL");
  BOOST_TEST(alert_json(gate).at("passRateDelta").as_double() == -0.6);
  for (const std::string& hook : hooks) {
    const boost::json::value log = alert_json(whole.call("GET", base + "/" + hook + "/deliveries"));
    BOOST_TEST(log.at("totalElements").as_int64() == 1);
    BOOST_TEST(log.at("content").at(0).at("runId").as_string() == regressed);
  }
  BOOST_TEST(recovered != regressed);
}

BOOST_AUTO_TEST_SUITE_END()
