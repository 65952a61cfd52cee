#include <krino/support/server_client.hpp>

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <random>
#include <thread>

namespace krino::server {
namespace {

bool worth_retrying(const HttpReply& reply) {
  if (!reply.answered()) return true;
  return reply.status == 408 || reply.status == 429 || reply.status >= 500;
}

// Retry-After in seconds ("2", leniently "1.5"); an HTTP date or nonsense falls back to the backoff.
std::optional<std::chrono::milliseconds> retry_after_of(const HttpReply& reply, std::chrono::milliseconds cap) {
  const auto value = reply.header("Retry-After");
  if (!value || value->empty()) return std::nullopt;
  double seconds = 0;
  const char* end = value->data() + value->size();
  const auto [ptr, ec] = std::from_chars(value->data(), end, seconds);
  if (ec != std::errc() || ptr != end || !std::isfinite(seconds) || seconds < 0) return std::nullopt;
  const auto wait = std::chrono::milliseconds(static_cast<int64_t>(std::min(seconds * 1000.0, static_cast<double>(cap.count()))));
  return std::min(wait, cap);
}

std::string describe(const HttpReply& reply) {
  if (reply.answered()) return "HTTP " + std::to_string(reply.status);
  return reply.error.empty() ? std::string("no answer") : reply.error;
}

}  // namespace

Sleeper real_sleeper() {
  return [](std::chrono::milliseconds wait) { std::this_thread::sleep_for(wait); };
}

std::string random_uuid() {
  thread_local std::mt19937_64 engine{std::random_device{}()};
  uint64_t high = engine();
  uint64_t low = engine();
  high = (high & ~uint64_t{0xF000}) | uint64_t{0x4000};            // version 4
  low = (low & ~(uint64_t{0xC} << 60)) | (uint64_t{0x8} << 60);  // RFC 4122 variant
  char text[37];
  std::snprintf(text, sizeof text, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(high >> 32),
                static_cast<unsigned>((high >> 16) & 0xFFFF), static_cast<unsigned>(high & 0xFFFF),
                static_cast<unsigned>(low >> 48), static_cast<unsigned long long>(low & 0xFFFFFFFFFFFFull));
  return text;
}

std::string encode_path_segment(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || u == '-' || u == '.' || u == '_' ||
        u == '~') {
      out += c;
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 0xF];
    }
  }
  return out;
}

ServerClient::ServerClient(std::string base_url, std::string api_key, RetrySettings settings, Transport& transport,
                           Sleeper sleeper)
    : base_url_(std::move(base_url)),
      api_key_(std::move(api_key)),
      settings_(settings),
      transport_(transport),
      sleeper_(std::move(sleeper)) {}

CallOutcome ServerClient::call(std::string_view method, const std::string& path, std::string_view body,
                               const std::string& idempotency_key) {
  HeaderList headers = {{"Content-Type", "application/json"}, {"Accept", "application/json"}};
  if (!api_key_.empty()) headers.emplace_back("Authorization", "Bearer " + api_key_);
  if (!idempotency_key.empty()) headers.emplace_back("Idempotency-Key", idempotency_key);
  const std::string url = base_url_ + path;
  const std::string what = std::string(method) + " " + path;
  CallOutcome outcome;
  std::chrono::milliseconds backoff = settings_.first_backoff;
  for (int attempt = 1;; ++attempt) {
    const HttpReply reply = transport_.send(method, url, headers, body, settings_.timeout_ms);
    outcome.attempts = attempt;
    outcome.status = reply.answered() ? reply.status : 0;
    outcome.body = reply.body;
    if (reply.answered() && reply.status >= 200 && reply.status < 300) {
      outcome.kind = CallOutcome::Kind::delivered;
      outcome.message.clear();
      return outcome;
    }
    if (!worth_retrying(reply)) {
      outcome.kind = CallOutcome::Kind::rejected;
      outcome.message = what + ": " + describe(reply) + (reply.body.empty() ? "" : " " + reply.body.substr(0, 300));
      return outcome;
    }
    outcome.kind = CallOutcome::Kind::unreachable;
    outcome.message = what + ": " + describe(reply) + " after " + std::to_string(attempt) + " attempt(s)";
    if (attempt > settings_.retries || (abandon_ && abandon_())) return outcome;
    const auto asked = reply.answered() ? retry_after_of(reply, settings_.max_retry_after) : std::nullopt;
    sleeper_(asked ? *asked : backoff);
    backoff *= 2;
  }
}

CallOutcome ServerClient::create_run(const std::string& project, const std::string& experiment,
                                     std::string_view metadata_json, std::string& run_id, std::string_view dataset_version) {
  std::string body = "{\"experimentName\":";
  krino::json::append_json_string(body, experiment);
  if (!dataset_version.empty()) {
    body.append(",\"datasetVersion\":");
    krino::json::append_json_string(body, dataset_version);
  }
  body.append(",\"metadata\":").append(metadata_json.empty() ? std::string_view("{}") : metadata_json).append("}");
  CallOutcome outcome = call("POST", "/api/v1/projects/" + encode_path_segment(project) + "/runs", body, {});
  if (outcome.delivered()) {
    // The answer is parsed in full: the span readers trust their input, a server's body is not ours.
    boost::system::error_code ec;
    const boost::json::value answer = krino::json::parse(outcome.body, ec);
    const boost::json::value* id = !ec && answer.is_object() ? answer.as_object().if_contains("runId") : nullptr;
    if (id == nullptr || !id->is_string() || id->as_string().empty()) {
      outcome.kind = CallOutcome::Kind::rejected;
      outcome.message = "the server's answer to a new run has no runId";
      return outcome;
    }
    run_id = std::string(id->as_string());
  }
  return outcome;
}

CallOutcome ServerClient::post_items(const std::string& run_id, const std::string& idempotency_key,
                                     std::string_view items_json) {
  std::string body;
  body.reserve(items_json.size() + 12);
  body.append("{\"items\":").append(items_json).append("}");
  return call("POST", "/api/v1/runs/" + encode_path_segment(run_id) + "/items", body, idempotency_key);
}

CallOutcome ServerClient::set_status(const std::string& run_id, const std::string& status) {
  std::string body = "{\"status\":";
  krino::json::append_json_string(body, status);
  body += '}';
  return call("PATCH", "/api/v1/runs/" + encode_path_segment(run_id), body, {});
}

}  // namespace krino::server
