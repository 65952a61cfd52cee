#include "krino/core/server/alert_dispatcher.hpp"

#include "krino/core/net/http_client.hpp"
#include "krino/core/net/url.hpp"
#include "krino/core/server/webhook_signature.hpp"
#include "krino/core/store/uuid_v7.hpp"

#include <krino/json_text.hpp>

#include <cstdio>
#include <vector>

namespace krino::core::server {

namespace {

using Clock = std::chrono::system_clock;

std::int64_t unix_ms(Clock::time_point when) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(when.time_since_epoch()).count();
}

// One JSON line on stderr, as the access log writes them. Never the URL (a chat service's webhook
// URL is itself a secret) and never the secret.
void log_line(std::string line) {
  line += "}\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

void log_attempt(const store::ClaimedDelivery& delivery, const store::AttemptOutcome& outcome) {
  std::string line = "{\"event\":\"alert_attempt\",\"deliveryId\":";
  krino::json::append_json_string(line, delivery.id);
  line.append(",\"webhookId\":");
  krino::json::append_json_string(line, delivery.webhook_id);
  line.append(",\"attempt\":").append(std::to_string(delivery.attempts + 1));
  line.append(",\"statusCode\":").append(outcome.status_code ? std::to_string(*outcome.status_code) : std::string("null"));
  line.append(",\"error\":");
  if (outcome.error) krino::json::append_json_string(line, *outcome.error);
  else line.append("null");
  line.append(",\"outcome\":\"");
  line.append(outcome.next == store::AttemptOutcome::Next::delivered ? "DELIVERED"
              : outcome.next == store::AttemptOutcome::Next::dead    ? "DEAD"
                                                                     : "RETRY");
  line.append("\"");
  log_line(std::move(line));
}

void log_check_problem(const std::string& run_id, std::string_view message) {
  std::string line = "{\"event\":\"alert_check_failed\",\"runId\":";
  krino::json::append_json_string(line, run_id);
  line.append(",\"message\":");
  krino::json::append_json_string(line, message);
  log_line(std::move(line));
}

// The answers to a batch of POSTs sent at once, filled on the I/O threads.
struct PendingSends {
  std::mutex mutex;
  std::condition_variable done;
  std::size_t outstanding = 0;
  std::vector<std::optional<HttpResult>> results;
};

}  // namespace

std::chrono::milliseconds alert_retry_delay(const RetryPolicy& retry, std::int64_t attempts_made) {
  std::chrono::milliseconds delay = retry.base_delay;
  for (std::int64_t i = 1; i < attempts_made && delay < retry.max_delay; ++i) delay *= 2;
  return std::min(delay, retry.max_delay);
}

AlertDispatcher::AlertDispatcher(store::Store& store, boost::asio::io_context& io, RegressionCheck check, AlertOptions options)
    : store_(store), io_(io), check_(std::move(check)), options_(options), owner_("krino-" + store::to_text(store::UuidV7Generator().next())),
      client_(std::make_unique<HttpClient>(io)) {}

AlertDispatcher::~AlertDispatcher() { stop(); }

void AlertDispatcher::start() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
}

void AlertDispatcher::stop() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void AlertDispatcher::run() {
  for (;;) {
    bool busy = false;
    try {
      busy = work_once();
    } catch (const std::exception& error) {
      // The database is away for a moment: what was claimed comes back when its lease ends.
      std::string line = "{\"event\":\"alert_worker_error\",\"message\":";
      krino::json::append_json_string(line, error.what());
      log_line(std::move(line));
    }
    std::unique_lock<std::mutex> lock(mutex_);
    if (stopping_) return;
    if (!busy) wake_.wait_for(lock, options_.poll_interval, [this] { return stopping_; });
    if (stopping_) return;
  }
}

bool AlertDispatcher::work_once() {
  check_runs();
  const bool sent = send_due();
  const store::AlertQueueDepth depth = store_.alert_queue_depth();
  queued_checks_ = depth.checks;
  pending_ = depth.pending_deliveries;
  dead_now_ = depth.dead_deliveries;
  return sent;
}

void AlertDispatcher::check_runs() {
  const std::int64_t lease_ms = options_.lease.count();
  for (const store::AlertCheck& check : store_.claim_alert_checks(owner_, unix_ms(Clock::now()), lease_ms, options_.batch)) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;  // the rest come back when their lease ends
    }
    if (check.claims > options_.max_check_claims) {
      log_check_problem(check.run_id, "given up after " + std::to_string(options_.max_check_claims) + " failed checks");
      store_.finish_alert_check(check.run_id, owner_, std::nullopt, unix_ms(Clock::now()));
      continue;
    }
    std::optional<std::string> payload;
    try {
      payload = check_(check);
    } catch (const store::StoreError& error) {
      // The run or its baseline is gone, or the run cannot be compared: nothing to alert on.
      log_check_problem(check.run_id, error.what());
      store_.finish_alert_check(check.run_id, owner_, std::nullopt, unix_ms(Clock::now()));
      continue;
    } catch (const std::exception& error) {
      log_check_problem(check.run_id, error.what());  // tried again when the lease ends
      continue;
    }
    store_.finish_alert_check(check.run_id, owner_, payload, unix_ms(Clock::now()));
    ++checked_;
    if (payload) ++alerts_;
  }
}

bool AlertDispatcher::send_due() {
  const std::vector<store::ClaimedDelivery> claimed =
      store_.claim_deliveries(owner_, unix_ms(Clock::now()), options_.lease.count(), options_.batch);
  if (claimed.empty()) return false;

  // Every POST of the batch at once, on the I/O threads; this thread waits for the last answer
  // (each ends within the request timeout).
  auto sends = std::make_shared<PendingSends>();
  sends->results.resize(claimed.size());
  std::vector<std::string> unusable(claimed.size());
  const std::int64_t unix_seconds = std::chrono::duration_cast<std::chrono::seconds>(Clock::now().time_since_epoch()).count();
  for (std::size_t i = 0; i < claimed.size(); ++i) {
    Url url;
    try {
      url = parse_url(claimed[i].url);
    } catch (const std::exception& error) {
      unusable[i] = error.what();
      continue;
    }
    {
      const std::lock_guard<std::mutex> lock(sends->mutex);
      ++sends->outstanding;
    }
    client_->post(url, webhook_headers(claimed[i].id, claimed[i].secret, claimed[i].payload, unix_seconds), claimed[i].payload,
                  options_.request_timeout, [sends, i](HttpResult result) {
                    const std::lock_guard<std::mutex> lock(sends->mutex);
                    sends->results[i] = std::move(result);
                    if (--sends->outstanding == 0) sends->done.notify_all();
                  });
  }
  {
    std::unique_lock<std::mutex> lock(sends->mutex);
    in_flight_ = static_cast<std::int64_t>(sends->outstanding);
    sends->done.wait(lock, [&] { return sends->outstanding == 0; });
    in_flight_ = 0;
  }

  for (std::size_t i = 0; i < claimed.size(); ++i) {
    const store::ClaimedDelivery& delivery = claimed[i];
    const Clock::time_point now = Clock::now();
    store::AttemptOutcome outcome;
    outcome.at_ms = unix_ms(now);
    std::optional<std::chrono::milliseconds> asked_wait;
    bool hopeless = false;
    if (!unusable[i].empty()) {
      outcome.error = "the URL cannot be used: " + unusable[i];
      hopeless = true;
    } else {
      const HttpResult& result = *sends->results[i];
      if (result.outcome == HttpOutcome::response) {
        outcome.status_code = result.response.status;
        if (result.response.status < 200 || result.response.status >= 300) {
          outcome.error = "HTTP " + std::to_string(result.response.status);
          if (const auto header = result.response.retry_after()) asked_wait = parse_retry_after(*header, now);
        }
      } else {
        outcome.error = result.outcome == HttpOutcome::timeout ? "timeout: " + result.error : result.error;
      }
    }
    const std::int64_t attempts_made = delivery.attempts + 1;
    if (!outcome.error) {
      outcome.next = store::AttemptOutcome::Next::delivered;
      ++delivered_;
    } else if (hopeless || attempts_made >= options_.retry.max_attempts) {
      outcome.next = store::AttemptOutcome::Next::dead;
      ++dead_;
    } else {
      const std::chrono::milliseconds wait =
          asked_wait ? std::min(*asked_wait, options_.retry.max_retry_after) : alert_retry_delay(options_.retry, attempts_made);
      outcome.next = store::AttemptOutcome::Next::retry;
      outcome.next_attempt_ms = outcome.at_ms + wait.count();
      ++retried_;
    }
    log_attempt(delivery, outcome);
    store_.record_attempt(delivery.id, owner_, outcome);
  }
  return true;
}

std::string AlertDispatcher::metrics_text() const {
  std::string out;
  out.append("# HELP krino_alert_queue Regression alert work waiting, as last seen by this server.\n");
  out.append("# TYPE krino_alert_queue gauge\n");
  out.append("krino_alert_queue{kind=\"checks\"} ").append(std::to_string(queued_checks_.load())).append("\n");
  out.append("krino_alert_queue{kind=\"pending_deliveries\"} ").append(std::to_string(pending_.load())).append("\n");
  out.append("krino_alert_queue{kind=\"dead_deliveries\"} ").append(std::to_string(dead_now_.load())).append("\n");
  out.append("# HELP krino_alert_in_flight Webhook POSTs this server has sent and is waiting on (it holds their leases).\n");
  out.append("# TYPE krino_alert_in_flight gauge\n");
  out.append("krino_alert_in_flight ").append(std::to_string(in_flight_.load())).append("\n");
  out.append("# HELP krino_alert_attempts_total Webhook POSTs made by this server, by what came of them.\n");
  out.append("# TYPE krino_alert_attempts_total counter\n");
  out.append("krino_alert_attempts_total{outcome=\"delivered\"} ").append(std::to_string(delivered_.load())).append("\n");
  out.append("krino_alert_attempts_total{outcome=\"retry\"} ").append(std::to_string(retried_.load())).append("\n");
  out.append("krino_alert_attempts_total{outcome=\"dead\"} ").append(std::to_string(dead_.load())).append("\n");
  out.append("# HELP krino_alert_checks_total Ended runs judged for an alert by this server.\n");
  out.append("# TYPE krino_alert_checks_total counter\n");
  out.append("krino_alert_checks_total ").append(std::to_string(checked_.load())).append("\n");
  out.append("# HELP krino_alerts_total Ended runs found to have regressed by this server.\n");
  out.append("# TYPE krino_alerts_total counter\n");
  out.append("krino_alerts_total ").append(std::to_string(alerts_.load())).append("\n");
  return out;
}

}  // namespace krino::core::server
