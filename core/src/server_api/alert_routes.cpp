#include "krino/core/server_api/alert_routes.hpp"

#include "json_out.hpp"
#include "query_params.hpp"
#include "route_helpers.hpp"
#include "krino/core/common/json_scan.hpp"
#include "krino/core/common/utc_time.hpp"
#include "krino/core/net/url.hpp"
#include "krino/core/store/uuid_v7.hpp"

#include <krino/json_spans.hpp>

#include <boost/beast/http/verb.hpp>

#include <chrono>
#include <variant>

namespace krino::core::server_api {

namespace {


constexpr std::size_t kDefaultDeliveryPage = 20;
constexpr std::size_t kMaxDeliveryPage = 100;
constexpr std::size_t kMaxUrlBytes = 2048;
constexpr std::size_t kMaxSecretBytes = 1024;


std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// "2026-05-01T12:34:56.789Z": queue times are kept to the millisecond.
void append_time_ms(std::string& out, std::int64_t unix_ms) {
  const std::int64_t seconds = unix_ms >= 0 ? unix_ms / 1000 : (unix_ms - 999) / 1000;
  std::string text = format_utc_timestamp(std::chrono::system_clock::time_point(std::chrono::seconds(seconds)));
  const std::int64_t millis = unix_ms - seconds * 1000;
  std::string fraction = std::to_string(1000 + millis);  // "1007" -> ".007"
  fraction[0] = '.';
  text.insert(text.size() - 1, fraction);
  krino::json::append_json_string(out, text);
}

void append_optional_time_ms(std::string& out, const std::optional<std::int64_t>& unix_ms) {
  if (unix_ms) append_time_ms(out, *unix_ms);
  else out += "null";
}

void append_webhook(std::string& out, const store::AlertWebhook& webhook) {
  out += "{\"id\":";
  krino::json::append_json_string(out, webhook.id);
  append_key(out, "projectId");
  krino::json::append_json_string(out, webhook.project_id);
  append_key(out, "url");
  krino::json::append_json_string(out, webhook.url);
  append_key(out, "enabled");
  krino::event::append_bool(out, webhook.enabled);
  append_key(out, "hasSecret");
  krino::event::append_bool(out, webhook.has_secret);
  append_key(out, "tenantId");
  append_optional_text(out, webhook.tenant);
  append_key(out, "createdAt");
  krino::json::append_json_string(out, webhook.created_at);
  append_key(out, "updatedAt");
  krino::json::append_json_string(out, webhook.updated_at);
  out += '}';
}

void append_delivery(std::string& out, const store::AlertDelivery& delivery) {
  out += "{\"id\":";
  krino::json::append_json_string(out, delivery.id);
  append_key(out, "webhookId");
  krino::json::append_json_string(out, delivery.webhook_id);
  append_key(out, "runId");
  krino::json::append_json_string(out, delivery.run_id);
  append_key(out, "status");
  krino::json::append_json_string(out, store::delivery_status_name(delivery.status));
  append_key(out, "attempts");
  krino::event::append_integer(out, delivery.attempts);
  append_key(out, "nextAttemptAt");
  append_optional_time_ms(out, delivery.next_attempt_ms);
  append_key(out, "deliveredAt");
  append_optional_time_ms(out, delivery.delivered_ms);
  append_key(out, "createdAt");
  append_time_ms(out, delivery.created_ms);
  const store::DeliveryAttempt* last = delivery.attempt_log.empty() ? nullptr : &delivery.attempt_log.back();
  append_key(out, "lastStatusCode");
  krino::event::append_optional(out, last != nullptr ? last->status_code : std::nullopt);
  append_key(out, "lastError");
  append_optional_text(out, last != nullptr ? last->error : std::nullopt);
  append_key(out, "attemptLog");
  out += '[';
  for (std::size_t i = 0; i < delivery.attempt_log.size(); ++i) {
    const store::DeliveryAttempt& attempt = delivery.attempt_log[i];
    if (i > 0) out += ',';
    out += "{\"number\":";
    krino::event::append_integer(out, attempt.number);
    append_key(out, "at");
    append_time_ms(out, attempt.at_ms);
    append_key(out, "statusCode");
    krino::event::append_optional(out, attempt.status_code);
    append_key(out, "error");
    append_optional_text(out, attempt.error);
    out += '}';
  }
  out += ']';
  append_key(out, "payload");
  out += delivery.payload;  // the server's own JSON, exactly the bytes the receiver gets
  out += '}';
}

// The members of a webhook body, read and checked; `creating` makes `url` required and defaults
// the rest, otherwise (PUT) an absent secret means "keep it".
struct WebhookBody {
  std::string url;
  bool enabled = true;
  store::WebhookChange::Secret secret_change = store::WebhookChange::Secret::keep;
  std::string secret;
};

std::variant<WebhookBody, Response> read_webhook_body(const Request& request) {
  std::optional<Response> refusal;
  const std::optional<std::vector<JsonMember>> body = object_body(request, refusal);
  if (!body) return std::move(*refusal);
  const std::vector<JsonMember>& members = *body;
  WebhookBody read;
  const auto url = member(members, "url");
  if (!url || !is_string_span(*url)) return invalid_field("url", "is required and must be a string");
  read.url = krino::json::string_token_text(*url);
  if (read.url.size() > kMaxUrlBytes) return invalid_field("url", "is longer than 2048 bytes");
  try {
    const Url parsed = parse_url(read.url);
    if (parsed.scheme != "http" && parsed.scheme != "https") return invalid_field("url", "must be an http:// or https:// URL");
  } catch (const std::exception& error) {
    return invalid_field("url", std::string("must be an http:// or https:// URL: ") + error.what());
  }
  if (const auto enabled = member(members, "enabled"); enabled && *enabled != "null") {
    if (*enabled != "true" && *enabled != "false") return invalid_field("enabled", "must be true or false");
    read.enabled = *enabled == "true";
  }
  if (const auto secret = member(members, "secret")) {
    if (*secret == "null") {
      read.secret_change = store::WebhookChange::Secret::clear;
    } else {
      if (!is_string_span(*secret)) return invalid_field("secret", "must be a string or null");
      read.secret = krino::json::string_token_text(*secret);
      if (read.secret.empty()) return invalid_field("secret", "must not be empty (send null, or leave it out, for unsigned deliveries)");
      if (read.secret.size() > kMaxSecretBytes) return invalid_field("secret", "is longer than 1024 bytes");
      read.secret_change = store::WebhookChange::Secret::set;
    }
  }
  return read;
}

Response create_webhook(store::Store& store, const Request& request, const store::Scope& scope) {
  const auto project_id = uuid_param(request, "projectId");
  if (!project_id || !store.project_by_id(scope, *project_id)) return not_found("project " + request.param("projectId"));
  auto body = read_webhook_body(request);
  if (auto* refusal = std::get_if<Response>(&body)) return std::move(*refusal);
  const WebhookBody& read = std::get<WebhookBody>(body);
  store::NewWebhook webhook{read.url, std::nullopt, read.enabled};
  if (read.secret_change == store::WebhookChange::Secret::set) webhook.secret = read.secret;
  try {
    const store::AlertWebhook made = store.create_webhook(scope, *project_id, webhook);
    std::string out;
    append_webhook(out, made);
    Response response = http_server::json_response(Status::created, std::move(out));
    response.set(boost::beast::http::field::location, "/api/v1/projects/" + made.project_id + "/alert-webhooks/" + made.id);
    return response;
  } catch (const store::StoreError&) {
    return not_found("project " + request.param("projectId"));  // deleted meanwhile
  }
}

Response list_webhooks(store::Store& store, const Request& request, const store::Scope& scope) {
  const auto project_id = uuid_param(request, "projectId");
  const auto webhooks = project_id ? store.webhooks(scope, *project_id) : std::nullopt;
  if (!webhooks) return not_found("project " + request.param("projectId"));
  std::string out = "[";
  for (const store::AlertWebhook& webhook : *webhooks) {
    if (out.size() > 1) out += ',';
    append_webhook(out, webhook);
  }
  out += ']';
  return http_server::json_response(Status::ok, std::move(out));
}

// The project and webhook ids of the path, or nullopt when either is not an id at all.
std::optional<std::pair<std::string, std::string>> webhook_path(const Request& request) {
  const auto project_id = uuid_param(request, "projectId");
  const auto webhook_id = uuid_param(request, "webhookId");
  if (!project_id || !webhook_id) return std::nullopt;
  return std::pair{*project_id, *webhook_id};
}

Response no_webhook(const Request& request) { return not_found("webhook " + request.param("webhookId") + " in project " + request.param("projectId")); }

Response get_webhook(store::Store& store, const Request& request, const store::Scope& scope) {
  const auto ids = webhook_path(request);
  const auto webhook = ids ? store.webhook(scope, ids->first, ids->second) : std::nullopt;
  if (!webhook) return no_webhook(request);
  std::string out;
  append_webhook(out, *webhook);
  return http_server::json_response(Status::ok, std::move(out));
}

Response update_webhook(store::Store& store, const Request& request, const store::Scope& scope) {
  const auto ids = webhook_path(request);
  if (!ids || !store.webhook(scope, ids->first, ids->second)) return no_webhook(request);
  auto body = read_webhook_body(request);
  if (auto* refusal = std::get_if<Response>(&body)) return std::move(*refusal);
  const WebhookBody& read = std::get<WebhookBody>(body);
  const auto updated = store.update_webhook(scope, ids->first, ids->second, store::WebhookChange{read.url, read.enabled, read.secret_change, read.secret});
  if (!updated) return no_webhook(request);
  std::string out;
  append_webhook(out, *updated);
  return http_server::json_response(Status::ok, std::move(out));
}

Response delete_webhook(store::Store& store, const Request& request, const store::Scope& scope) {
  const auto ids = webhook_path(request);
  if (!ids || !store.delete_webhook(scope, ids->first, ids->second)) return no_webhook(request);
  Response response(Status::no_content, 11);
  response.prepare_payload();
  return response;
}

Response list_deliveries(store::Store& store, const Request& request, const store::Scope& scope) {
  std::optional<Response> refusal;
  const auto page = whole_query(request, "page", 0, 0, std::size_t{1} << 30, refusal);
  if (!page) return *refusal;
  const auto size = whole_query(request, "size", kDefaultDeliveryPage, 1, kMaxDeliveryPage, refusal);
  if (!size) return *refusal;
  const auto ids = webhook_path(request);
  const auto found = ids ? store.deliveries(scope, ids->first, ids->second, *page * *size, *size) : std::nullopt;
  if (!found) return no_webhook(request);
  // A Spring Data page, as the run details' items are.
  std::string out = "{\"content\":[";
  for (std::size_t i = 0; i < found->deliveries.size(); ++i) {
    if (i > 0) out += ',';
    append_delivery(out, found->deliveries[i]);
  }
  out += ']';
  append_page_fields(out, *page, *size, found->total, found->deliveries.size(),
                     static_cast<std::int64_t>((*page + 1) * *size) >= found->total);
  out += '}';
  return http_server::json_response(Status::ok, std::move(out));
}

Response redeliver(store::Store& store, const Request& request, const store::Scope& scope) {
  const auto ids = webhook_path(request);
  const auto delivery_id = uuid_param(request, "deliveryId");
  const Response none = not_found("delivery " + request.param("deliveryId") + " of webhook " + request.param("webhookId"));
  if (!ids || !delivery_id) return none;
  try {
    const auto delivery = store.redeliver(scope, ids->first, ids->second, *delivery_id, now_ms());
    if (!delivery) return none;
    std::string out;
    append_delivery(out, *delivery);
    return http_server::json_response(Status::ok, std::move(out));
  } catch (const store::StoreError& error) {
    return http_server::error_response(Status::conflict, "conflict", error.what());
  }
}

}  // namespace

void add_alert_routes(http_server::Router& router, store::Store& store, const Authenticator& auth) {
  using boost::beast::http::verb;
  const std::string base = "/api/v1/projects/{projectId}/alert-webhooks";
  const std::string one = base + "/{webhookId}";
  router.add(verb::post, base, auth.guard(Access::write, [&store](const Request& r, const Principal& p) { return create_webhook(store, r, p.scope()); }));
  router.add(verb::get, base, auth.guard(Access::write, [&store](const Request& r, const Principal& p) { return list_webhooks(store, r, p.scope()); }));
  router.add(verb::get, one, auth.guard(Access::write, [&store](const Request& r, const Principal& p) { return get_webhook(store, r, p.scope()); }));
  router.add(verb::put, one, auth.guard(Access::write, [&store](const Request& r, const Principal& p) { return update_webhook(store, r, p.scope()); }));
  router.add(verb::delete_, one, auth.guard(Access::write, [&store](const Request& r, const Principal& p) { return delete_webhook(store, r, p.scope()); }));
  router.add(verb::get, one + "/deliveries", auth.guard(Access::write, [&store](const Request& r, const Principal& p) { return list_deliveries(store, r, p.scope()); }));
  router.add(verb::post, one + "/deliveries/{deliveryId}/retry",
             auth.guard(Access::write, [&store](const Request& r, const Principal& p) { return redeliver(store, r, p.scope()); }));
}

}  // namespace krino::core::server_api
