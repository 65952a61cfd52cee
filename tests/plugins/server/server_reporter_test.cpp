// The server reporter without sockets: a scripted transport answers each request and records it,
// a recording sleeper stands in for the waits between attempts.
#include "batch_sender.hpp"
#include "reporter_events.hpp"
#include <krino/support/server_client.hpp>
#include "server_options.hpp"
#include "server_reporter.hpp"
#include "spool_file.hpp"

#include <boost/test/unit_test.hpp>

#include <condition_variable>
#include <cstdio>
#include <set>
#include <deque>
#include <mutex>

using namespace krino::server;
using krino::testing::reports::count_of;
using krino::testing::reports::read_file;
using krino::testing::reports::ScratchDirectory;

namespace {

struct SentRequest {
  std::string method, url, body, idempotency_key;
};

// Answers from a script (then from `fallback`), and keeps every request.
class ScriptedTransport final : public Transport {
 public:
  HttpReply fallback;
  ScriptedTransport() {
    fallback.status = 201;
    fallback.body = R"({"runId":"run-1","status":"ok"})";
  }
  void then(int status, std::string body = "{}", std::string headers = "") {
    HttpReply reply;
    reply.status = status;
    reply.body = std::move(body);
    reply.headers = std::move(headers);
    std::lock_guard lock(mutex_);
    script_.push_back(std::move(reply));
  }
  void then_no_answer() {
    HttpReply reply;
    reply.transport = KRINO_UNAVAILABLE;
    reply.error = "connection refused";
    std::lock_guard lock(mutex_);
    script_.push_back(std::move(reply));
  }
  HttpReply send(std::string_view method, const std::string& url, const HeaderList& headers, std::string_view body,
                 uint32_t) override {
    SentRequest sent{std::string(method), url, std::string(body), {}};
    for (const auto& [name, value] : headers)
      if (name == "Idempotency-Key") sent.idempotency_key = value;
    std::lock_guard lock(mutex_);
    requests_.push_back(std::move(sent));
    changed_.notify_all();
    if (script_.empty()) return fallback;
    HttpReply reply = std::move(script_.front());
    script_.pop_front();
    return reply;
  }
  std::vector<SentRequest> requests() {
    std::lock_guard lock(mutex_);
    return requests_;
  }
  std::vector<SentRequest> item_posts() {
    std::vector<SentRequest> posts;
    for (auto& r : requests())
      if (r.url.find("/items") != std::string::npos) posts.push_back(r);
    return posts;
  }
  bool wait_for_requests(std::size_t n, std::chrono::milliseconds limit) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, limit, [&] { return requests_.size() >= n; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<HttpReply> script_;
  std::vector<SentRequest> requests_;
};

struct RecordedWaits {
  std::vector<std::chrono::milliseconds> waits;
  Sleeper sleeper() {
    return [this](std::chrono::milliseconds wait) { waits.push_back(wait); };
  }
};

ServerOptions options_for(const std::string& spool, int64_t batch_size = 2) {
  ServerOptions options;
  options.url = "http://server.test";
  options.project = "demo";
  options.batch_size = batch_size;
  options.batch_ms = 60'000;
  options.spool = spool;
  options.retries = 3;
  options.timeout_ms = 1000;
  options.finish_timeout_ms = 10'000;
  return options;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(text.substr(start, end - start));
  return lines;
}

// Feeds the sample experiment (5 items in one run) and flushes; the flush's error, if any.
std::string feed_sample(ServerReporter& reporter) {
  try {
    krino::testing::reports::feed(reporter, krino::testing::reports::sample_experiment().events());
  } catch (const krino::Error& e) {
    return e.what();
  }
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(server_client)

BOOST_AUTO_TEST_CASE(three_retries_are_four_attempts_with_one_key_and_doubling_waits) {
  ScriptedTransport transport;
  for (int i = 0; i < 4; ++i) transport.then(503, "busy");
  RecordedWaits waits;
  ServerClient client("http://server.test", "", RetrySettings{}, transport, waits.sleeper());
  const CallOutcome outcome = client.post_items("run-1", "key-1", R"([{"success":true}])");
  BOOST_TEST(!outcome.delivered());
  BOOST_TEST((outcome.kind == CallOutcome::Kind::unreachable));
  BOOST_TEST(outcome.attempts == 4);
  const auto requests = transport.requests();
  BOOST_REQUIRE_EQUAL(requests.size(), 4u);
  for (const auto& r : requests) BOOST_TEST(r.idempotency_key == "key-1");
  BOOST_REQUIRE_EQUAL(waits.waits.size(), 3u);
  BOOST_TEST(waits.waits[0].count() == 100);
  BOOST_TEST(waits.waits[1].count() == 200);
  BOOST_TEST(waits.waits[2].count() == 400);
}

BOOST_AUTO_TEST_CASE(retry_after_sets_the_wait_and_a_retry_can_succeed) {
  ScriptedTransport transport;
  transport.then(429, "slow down", "Content-Type: text/plain\nretry-after: 2\n");
  transport.then_no_answer();
  transport.then(201, R"({"status":"ok"})");
  RecordedWaits waits;
  ServerClient client("http://server.test", "", RetrySettings{}, transport, waits.sleeper());
  const CallOutcome outcome = client.post_items("run-1", "key-9", "[{}]");
  BOOST_TEST(outcome.delivered());
  BOOST_TEST(outcome.attempts == 3);
  BOOST_REQUIRE_EQUAL(waits.waits.size(), 2u);
  BOOST_TEST(waits.waits[0].count() == 2000);  // the server's Retry-After
  BOOST_TEST(waits.waits[1].count() == 200);   // the backoff goes on doubling
}

BOOST_AUTO_TEST_CASE(other_client_errors_are_final_at_once) {
  for (int status : {400, 401, 403, 404, 413}) {
    ScriptedTransport transport;
    transport.then(status, R"({"error":"no"})");
    RecordedWaits waits;
    ServerClient client("http://server.test", "secret-key", RetrySettings{}, transport, waits.sleeper());
    const CallOutcome outcome = client.set_status("run-1", "SUCCESS");
    BOOST_TEST((outcome.kind == CallOutcome::Kind::rejected), status);
    BOOST_TEST(outcome.attempts == 1);
    BOOST_TEST(waits.waits.empty());
    BOOST_TEST(outcome.message.find("secret-key") == std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(paths_are_encoded_and_the_run_id_read_from_the_answer) {
  ScriptedTransport transport;
  transport.then(201, R"({"runId":"0190-abc","experimentId":"e"})");
  RecordedWaits waits;
  ServerClient client("http://server.test", "", RetrySettings{}, transport, waits.sleeper());
  std::string run_id;
  BOOST_TEST(client.create_run("my project/ü", "qa", R"({"model":"m"})", run_id).delivered());
  BOOST_TEST(run_id == "0190-abc");
  const auto requests = transport.requests();
  BOOST_TEST(requests[0].url == "http://server.test/api/v1/projects/my%20project%2F%C3%BC/runs");
  BOOST_TEST(requests[0].body == R"({"experimentName":"qa","metadata":{"model":"m"}})");
  // An answer without a run id is not a run.
  transport.then(201, "not json");
  BOOST_TEST(!client.create_run("p", "qa", "{}", run_id).delivered());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(server_options)

BOOST_AUTO_TEST_CASE(the_environment_fills_what_the_file_leaves_out_and_the_url_loses_its_slash) {
  const EnvironmentLookup environment = [](const char* name) -> std::optional<std::string> {
    if (std::string(name) == "KRINO_SERVER_URL") return std::string("https://results.example/krino/");
    if (std::string(name) == "KRINO_PROJECT") return std::string("from-env");
    if (std::string(name) == "KRINO_API_KEY") return std::string("  ");  // blank: unset
    return std::nullopt;
  };
  ServerOptions options = ServerOptions::from_config(krino::testing::reports::config_from("{}"), environment);
  BOOST_TEST(options.url == "https://results.example/krino");
  BOOST_TEST(options.project == "from-env");
  BOOST_TEST(options.api_key.empty());
  BOOST_TEST(options.batch_size == 100);
  BOOST_TEST(options.batch_ms == 500);
  BOOST_TEST(options.spool == "failed-items.ndjson");
  BOOST_TEST(!options.allow_loss);
  options = ServerOptions::from_config(krino::testing::reports::config_from(R"({"project":"file","url":"http://h:1//"})"), environment);
  BOOST_TEST(options.project == "file");
  BOOST_TEST(options.url == "http://h:1");
}

BOOST_AUTO_TEST_CASE(a_missing_url_or_project_is_a_configuration_error_naming_it) {
  const EnvironmentLookup none = [](const char*) -> std::optional<std::string> { return std::nullopt; };
  try {
    ServerOptions::from_config(krino::testing::reports::config_from(R"({"project":"p"})"), none);
    BOOST_FAIL("no error");
  } catch (const krino::Error& e) {
    BOOST_TEST(std::string(e.what()).find("KRINO_SERVER_URL") != std::string::npos, e.what());
  }
  try {
    ServerOptions::from_config(krino::testing::reports::config_from(R"({"url":"http://h"})"), none);
    BOOST_FAIL("no error");
  } catch (const krino::Error& e) {
    BOOST_TEST(std::string(e.what()).find("KRINO_PROJECT") != std::string::npos, e.what());
  }
  BOOST_CHECK_THROW(ServerOptions::from_config(krino::testing::reports::config_from(R"({"url":"ftp://h","project":"p"})"), none),
                    krino::Error);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(server_reporter)

BOOST_AUTO_TEST_CASE(items_go_in_batches_of_batch_size_and_the_run_ends_with_its_status) {
  ScratchDirectory dir;
  ScriptedTransport transport;
  RecordedWaits waits;
  std::FILE* output = std::tmpfile();
  {
    ServerReporter reporter(options_for(dir.file("spool.ndjson")), transport, waits.sleeper(), output);
    BOOST_TEST(feed_sample(reporter).empty());
    BOOST_TEST(reporter.totals().delivered == 5u);
  }
  std::fclose(output);
  const auto requests = transport.requests();
  BOOST_REQUIRE_EQUAL(requests.size(), 5u);  // create, 2 + 2 + 1 items, status
  BOOST_TEST(requests[0].url == "http://server.test/api/v1/projects/demo/runs");
  BOOST_TEST(requests[0].body.find(R"("experimentName":"capitals")") != std::string::npos);
  BOOST_TEST(requests[0].body.find(R"("metadata":{"model":"gpt-test","temperature":0})") != std::string::npos);
  std::set<std::string> keys;
  for (std::size_t i = 1; i <= 3; ++i) {
    BOOST_TEST(requests[i].url == "http://server.test/api/v1/runs/run-1/items");
    BOOST_TEST(requests[i].idempotency_key.size() == 36u);
    keys.insert(requests[i].idempotency_key);
  }
  BOOST_TEST(keys.size() == 3u);  // one key per batch
  BOOST_TEST(count_of(requests[1].body, "\"evalResults\"") == 2u);
  BOOST_TEST(count_of(requests[3].body, "\"evalResults\"") == 1u);
  BOOST_TEST(requests[1].body.find(R"("itemId":"cap-01")") != std::string::npos);
  BOOST_TEST(requests[1].body.find(R"("score":0.9)") != std::string::npos);
  BOOST_TEST(requests[4].method == "PATCH");
  BOOST_TEST(requests[4].body == R"({"status":"SUCCESS"})");
  BOOST_TEST(!std::filesystem::exists(dir / "spool.ndjson"));  // nothing to keep, no file
}

BOOST_AUTO_TEST_CASE(a_run_of_a_server_dataset_names_its_version_and_keeps_it_in_the_spool) {
  // The dataset:// resolver names its dataset "name@N"; a file dataset's run sends no version.
  std::vector<std::string> events = krino::testing::reports::sample_experiment().events();
  for (std::string& event : events) {
    const std::size_t uri = event.find(R"("uri":"data/cases.jsonl","name":"cases")");
    if (uri != std::string::npos) event.replace(uri, 39, R"("uri":"dataset://qa@latest","name":"qa@4")");
  }
  for (const bool down : {false, true}) {
    ScratchDirectory dir;
    ScriptedTransport transport;
    if (down) {
      transport.fallback.transport = KRINO_UNAVAILABLE;
      transport.fallback.error = "connection refused";
    }
    RecordedWaits waits;
    std::FILE* output = std::tmpfile();
    {
      ServerReporter reporter(options_for(dir.file("spool.ndjson")), transport, waits.sleeper(), output);
      try {
        krino::testing::reports::feed(reporter, events);
      } catch (const krino::Error&) {
        BOOST_TEST(down);
      }
    }
    std::fclose(output);
    BOOST_TEST(transport.requests()[0].body.find(R"("datasetVersion":"qa@4")") != std::string::npos, transport.requests()[0].body);
    if (down) {
      // Replayed later by krino upload, the run is still created with its version.
      const SpoolRecord record = read_spool_line(lines_of(read_file(dir / "spool.ndjson"))[0]);
      BOOST_TEST(record.target.dataset_version == "qa@4");
      BOOST_TEST(read_spool_line(spool_line(record)).target.dataset_version == "qa@4");
    }
  }
  ScriptedTransport plain;
  RecordedWaits waits;
  std::FILE* output = std::tmpfile();
  {
    ScratchDirectory dir;
    ServerReporter reporter(options_for(dir.file("spool.ndjson")), plain, waits.sleeper(), output);
    BOOST_TEST(feed_sample(reporter).empty());
  }
  std::fclose(output);
  BOOST_TEST(plain.requests()[0].body.find("datasetVersion") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_batch_leaves_batch_ms_after_its_first_item_without_waiting_for_more) {
  ScriptedTransport transport;
  RecordedWaits waits;
  BatchSender::Log quiet = [](const std::string&) {};
  ServerClient client("http://server.test", "", RetrySettings{}, transport, waits.sleeper());
  SenderSettings settings;
  settings.batch_size = 100;
  settings.batch_wait = std::chrono::milliseconds(30);
  BatchSender sender(settings, client, nullptr, quiet);
  sender.start_run(RunTarget{"http://server.test", "demo", "qa", "{}", ""});
  sender.add_item(R"({"success":true})");
  sender.add_item(R"({"success":false})");
  // The run's creation, then the batch of two, well before anything else happens.
  BOOST_REQUIRE(transport.wait_for_requests(2, std::chrono::seconds(5)));
  const auto posts = transport.item_posts();
  BOOST_REQUIRE_EQUAL(posts.size(), 1u);
  BOOST_TEST(posts[0].body == R"({"items":[{"success":true},{"success":false}]})");
  const RunSummary summary = sender.finish_run("SUCCESS");
  BOOST_TEST(summary.items.delivered == 2u);
  BOOST_TEST(summary.status_sent);
}

BOOST_AUTO_TEST_CASE(a_server_down_at_start_gives_a_local_run_whose_items_and_status_are_spooled) {
  ScratchDirectory dir;
  ScriptedTransport transport;
  transport.fallback.transport = KRINO_UNAVAILABLE;
  transport.fallback.error = "connection refused";
  RecordedWaits waits;
  std::FILE* output = std::tmpfile();
  std::string error;
  {
    ServerReporter reporter(options_for(dir.file("spool.ndjson")), transport, waits.sleeper(), output);
    error = feed_sample(reporter);
    BOOST_TEST(reporter.totals().spooled == 5u);
  }
  std::fclose(output);
  BOOST_TEST(error.find("5 item(s) did not reach http://server.test") != std::string::npos, error);
  BOOST_TEST(transport.requests().size() == 4u);  // only the run's creation, tried 4 times
  const auto lines = lines_of(read_file(dir / "spool.ndjson"));
  BOOST_REQUIRE_EQUAL(lines.size(), 4u);  // three batches, then the status
  std::string run_id;
  for (std::size_t i = 0; i < 3; ++i) {
    const SpoolRecord record = read_spool_line(lines[i]);
    BOOST_TEST(record.kind == "items");
    BOOST_TEST(record.target.run_id.rfind("local-", 0) == 0u);
    BOOST_TEST(record.target.run_id.find_first_not_of("0123456789", 6) == std::string::npos);
    BOOST_TEST(record.target.server == "http://server.test");
    BOOST_TEST(record.target.project == "demo");
    BOOST_TEST(record.target.experiment == "capitals");
    BOOST_TEST(record.idempotency_key.size() == 36u);
    run_id = record.target.run_id;
  }
  const SpoolRecord status = read_spool_line(lines[3]);
  BOOST_TEST(status.kind == "status");
  BOOST_TEST(status.status == "SUCCESS");
  BOOST_TEST(status.target.run_id == run_id);
}

BOOST_AUTO_TEST_CASE(allow_loss_ends_quietly_and_without_a_spool_the_items_are_counted_lost) {
  ScriptedTransport transport;
  transport.fallback.status = 503;
  RecordedWaits waits;
  std::FILE* output = std::tmpfile();
  ServerOptions options = options_for("");
  options.allow_loss = true;
  {
    ServerReporter reporter(options, transport, waits.sleeper(), output);
    BOOST_TEST(feed_sample(reporter).empty());
    BOOST_TEST(reporter.totals().lost == 5u);
  }
  options.allow_loss = false;
  {
    ServerReporter reporter(options, transport, waits.sleeper(), output);
    BOOST_TEST(feed_sample(reporter).find("(5 lost)") != std::string::npos);
  }
  std::fclose(output);
}

BOOST_AUTO_TEST_CASE(a_batch_that_fails_mid_run_is_spooled_under_the_server_run_with_the_status_after_it) {
  ScratchDirectory dir;
  ScriptedTransport transport;
  transport.then(201, R"({"runId":"run-7"})");  // create
  transport.then(201, R"({"status":"ok"})");    // first batch
  for (int i = 0; i < 4; ++i) transport.then(500, "down");  // second batch, every attempt
  RecordedWaits waits;
  std::FILE* output = std::tmpfile();
  std::string first_key_spooled;
  {
    ServerReporter reporter(options_for(dir.file("spool.ndjson")), transport, waits.sleeper(), output);
    BOOST_TEST(!feed_sample(reporter).empty());
    BOOST_TEST(reporter.totals().delivered == 2u);  // batch 1
    BOOST_TEST(reporter.totals().spooled == 3u);    // batch 2, and batch 3 without trying: the server is gone
  }
  std::fclose(output);
  const auto posts = transport.item_posts();
  BOOST_REQUIRE_EQUAL(posts.size(), 5u);
  for (std::size_t i = 2; i < 5; ++i) BOOST_TEST(posts[i].idempotency_key == posts[1].idempotency_key);
  const auto lines = lines_of(read_file(dir / "spool.ndjson"));
  BOOST_REQUIRE_EQUAL(lines.size(), 3u);
  const SpoolRecord batch = read_spool_line(lines[0]);
  BOOST_TEST(batch.target.run_id == "run-7");
  BOOST_TEST(batch.idempotency_key == posts[1].idempotency_key);  // a replay is deduplicated
  BOOST_TEST(batch.item_count == 2u);
  BOOST_TEST(read_spool_line(lines[1]).item_count == 1u);
  BOOST_TEST(read_spool_line(lines[2]).status == "SUCCESS");
  for (const auto& r : transport.requests()) BOOST_TEST(r.method != "PATCH");  // the status waits for the items
}

BOOST_AUTO_TEST_CASE(a_replay_creates_a_local_run_once_and_keeps_every_key) {
  ScratchDirectory dir;
  // A spool from a run the server never saw.
  std::string spool_text;
  for (const char* key : {"k-1", "k-2"}) {
    SpoolRecord record;
    record.target = RunTarget{"http://old", "demo", "qa", R"({"m":1})", "local-17"};
    record.kind = "items";
    record.idempotency_key = key;
    record.items_json = R"([{"success":true,"evalResults":[{"name":"x","score":0.30000000000000004,"success":true}]}])";
    spool_text += spool_line(record) + "\n";
  }
  SpoolRecord status;
  status.target = RunTarget{"http://old", "demo", "qa", "{}", "local-17"};
  status.kind = "status";
  status.status = "FAILED";
  spool_text += spool_line(status) + "\n";

  ScriptedTransport transport;
  transport.then(201, R"({"runId":"server-run"})");
  transport.then(201, "{}");
  transport.then(200, R"({"status":"ok","alreadyStored":true})");  // stored before, by the lost answer's request
  transport.then(200, R"({"status":"updated"})");
  RecordedWaits waits;
  std::FILE* output = std::tmpfile();
  {
    ServerReporter reporter(options_for(dir.file("again.ndjson")), transport, waits.sleeper(), output);
    for (const auto& line : lines_of(spool_text)) reporter.on_event(krino::Event(line));
    BOOST_CHECK_NO_THROW(reporter.flush());
    BOOST_TEST(reporter.totals().delivered == 2u);
  }
  std::fclose(output);
  const auto requests = transport.requests();
  BOOST_REQUIRE_EQUAL(requests.size(), 4u);
  BOOST_TEST(requests[0].body == R"({"experimentName":"qa","metadata":{"m":1}})");
  BOOST_TEST(requests[1].url == "http://server.test/api/v1/runs/server-run/items");
  BOOST_TEST(requests[1].idempotency_key == "k-1");
  BOOST_TEST(requests[2].idempotency_key == "k-2");
  BOOST_TEST(requests[1].body.find("0.30000000000000004") != std::string::npos);  // numbers as written
  BOOST_TEST(requests[3].method == "PATCH");
  BOOST_TEST(requests[3].body == R"({"status":"FAILED"})");
  BOOST_TEST(!std::filesystem::exists(dir / "again.ndjson"));
}

BOOST_AUTO_TEST_CASE(a_full_queue_holds_the_producer_until_the_worker_catches_up) {
  ScriptedTransport transport;
  RecordedWaits waits;
  ServerClient client("http://server.test", "", RetrySettings{}, transport, waits.sleeper());
  SenderSettings settings;
  settings.batch_size = 10;
  settings.queue_capacity = 5;
  BatchSender sender(settings, client, nullptr, [](const std::string&) {});
  sender.start_run(RunTarget{"http://server.test", "demo", "qa", "{}", ""});
  for (int i = 0; i < 1000; ++i) sender.add_item(R"({"success":true})");
  const RunSummary summary = sender.finish_run("SUCCESS");
  BOOST_TEST(summary.items.delivered == 1000u);
  BOOST_TEST(transport.item_posts().size() == 100u);
}

BOOST_AUTO_TEST_SUITE_END()
