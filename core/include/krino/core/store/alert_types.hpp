#pragma once
// What the store keeps for regression alerts: a project's webhooks, the durable queue of runs to
// check, and the deliveries with their attempts (the delivery log). The queue's times are Unix
// milliseconds of the worker's clock, compared as numbers on both backends, so a test can drive
// leases and backoff with a clock of its own.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core::store {

// A project as an alert route names it: by id.
struct ProjectRef {
  std::string id;
  std::string name;
  std::optional<std::string> tenant = std::nullopt;
};

// A webhook as it is shown: whether it has a secret, never the secret itself (write-only).
struct AlertWebhook {
  std::string id;
  std::string project_id;
  std::string url;
  bool has_secret = false;
  bool enabled = true;
  std::optional<std::string> tenant = std::nullopt;
  std::string created_at;
  std::string updated_at;
};

struct NewWebhook {
  std::string url;
  std::optional<std::string> secret = std::nullopt;  // none: deliveries go unsigned
  bool enabled = true;
};

// A PUT: url and enabled are replaced; the secret, which the caller cannot read back, is kept
// unless the request sets or clears it.
struct WebhookChange {
  enum class Secret { keep, set, clear };
  std::string url;
  bool enabled = true;
  Secret secret_change = Secret::keep;
  std::string secret = {};  // for Secret::set
};

enum class DeliveryStatus { pending, delivered, dead };
std::string_view delivery_status_name(DeliveryStatus status);  // "PENDING", "DELIVERED", "DEAD"

// One POST to a receiver and what came of it.
struct DeliveryAttempt {
  std::int64_t number = 0;  // 1, 2, ... over the delivery's whole life (a redelivery continues it)
  std::int64_t at_ms = 0;
  std::optional<std::int64_t> status_code = std::nullopt;  // none: no HTTP answer
  std::optional<std::string> error = std::nullopt;         // a transport error, or "HTTP 503"
};

// One alert for one webhook: the body to send and where its delivery stands.
struct AlertDelivery {
  std::string id;
  std::string webhook_id;
  std::string run_id;
  DeliveryStatus status = DeliveryStatus::pending;
  std::int64_t attempts = 0;  // made since it was queued or last redelivered
  std::optional<std::int64_t> next_attempt_ms = std::nullopt;  // pending only
  std::optional<std::int64_t> delivered_ms = std::nullopt;
  std::int64_t created_ms = 0;
  std::string payload;  // the JSON body, byte for byte what every attempt sends
  std::vector<DeliveryAttempt> attempt_log;  // oldest first
};

struct DeliveryPage {
  std::vector<AlertDelivery> deliveries;  // newest first
  std::int64_t total = 0;
};

// A run that ended in a project with webhooks, claimed by one worker to be compared.
struct AlertCheck {
  std::string run_id;
  std::string experiment_id;
  std::optional<std::string> tenant = std::nullopt;  // the run's: the scope it is compared in
  std::int64_t claims = 0;                           // times it was claimed, this one included
};

// A delivery claimed by one worker until its lease ends.
struct ClaimedDelivery {
  std::string id;
  std::string webhook_id;
  std::string url;
  std::optional<std::string> secret = std::nullopt;
  std::string payload;
  std::int64_t attempts = 0;  // made before this one
};

// What one attempt came to, and what the delivery becomes.
struct AttemptOutcome {
  enum class Next { delivered, retry, dead };
  std::int64_t at_ms = 0;
  std::optional<std::int64_t> status_code = std::nullopt;
  std::optional<std::string> error = std::nullopt;
  Next next = Next::retry;
  std::int64_t next_attempt_ms = 0;  // for Next::retry
};

// The queue as /metrics shows it.
struct AlertQueueDepth {
  std::int64_t checks = 0;             // runs waiting to be compared
  std::int64_t pending_deliveries = 0;
  std::int64_t dead_deliveries = 0;
};

}  // namespace krino::core::store
