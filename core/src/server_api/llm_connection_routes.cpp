#include "krino/core/server_api/llm_connection_routes.hpp"

#include "route_helpers.hpp"
#include "krino/core/common/secret_box.hpp"
#include "krino/core/net/url.hpp"

#include <krino/json_parse.hpp>

#include <boost/beast/http/verb.hpp>
#include <boost/json.hpp>

#include <variant>

namespace krino::core::server_api {

namespace {

constexpr std::size_t kMaxConnectionName = 128;

// The provider as krino names it, from `provider` (krino's names) or `protocol` (the reference's).
std::optional<std::string> provider_of(const boost::json::object& body, std::string& problem) {
  const auto* provider = body.if_contains("provider");
  const auto* protocol = body.if_contains("protocol");
  if (provider && !provider->is_null()) {
    if (provider->is_string() && (provider->get_string() == "openai" || provider->get_string() == "openai_responses" ||
                                  provider->get_string() == "anthropic"))
      return std::string(provider->get_string());
    problem = "provider must be openai, openai_responses or anthropic";
    return std::nullopt;
  }
  if (protocol && !protocol->is_null()) {
    if (protocol->is_string() && protocol->get_string() == "CHAT_COMPLETIONS") return std::string("openai");
    if (protocol->is_string() && protocol->get_string() == "RESPONSES") return std::string("openai_responses");
    problem = "protocol must be CHAT_COMPLETIONS or RESPONSES";
    return std::nullopt;
  }
  return std::string("openai");
}

bool environment_variable_name(std::string_view name) {
  if (name.empty() || name.size() > 255 || (name[0] >= '0' && name[0] <= '9')) return false;
  for (const char c : name)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// The connection a body describes, or a 400. `creating`: exactly one credential is required.
std::variant<store::NewLlmConnection, Response> read_connection(const Request& request, bool creating, const EnvironmentLookup& environment) {
  std::optional<Response> refusal;
  if (!object_body(request, refusal)) return std::move(*refusal);
  boost::json::error_code ec;
  const boost::json::value parsed = krino::json::parse(request.message.body(), ec);
  if (ec || !parsed.is_object()) return invalid_field("body", "must be one JSON object");
  const boost::json::object& body = parsed.get_object();
  store::NewLlmConnection connection;
  auto text = [&](std::string_view key, std::string& out, bool required) -> std::optional<Response> {
    const auto* value = body.if_contains(key);
    if (value == nullptr || value->is_null()) {
      if (required) return invalid_field(key, "is required and must be a non-empty string");
      return std::nullopt;
    }
    if (!value->is_string() || value->get_string().empty()) return invalid_field(key, "must be a non-empty string");
    out = std::string(value->get_string());
    return std::nullopt;
  };
  if (auto problem = text("name", connection.name, true)) return std::move(*problem);
  if (connection.name.size() > kMaxConnectionName) return invalid_field("name", "is longer than 128 bytes");
  if (auto problem = text("baseUrl", connection.base_url, true)) return std::move(*problem);
  if (auto problem = text("model", connection.model, true)) return std::move(*problem);
  try {
    const Url url = parse_url(connection.base_url);
    (void)url;
  } catch (const std::exception& error) {
    return invalid_field("baseUrl", std::string("is not a usable http:// or https:// URL: ") + error.what());
  }
  std::string problem;
  const auto provider = provider_of(body, problem);
  if (!provider) return invalid_field("body", problem);
  connection.provider = *provider;
  auto whole = [&](std::string_view key, std::int64_t min, std::int64_t max, auto& out) -> std::optional<Response> {
    const auto* value = body.if_contains(key);
    if (value == nullptr || value->is_null()) return std::nullopt;
    if (!value->is_int64() || value->get_int64() < min || value->get_int64() > max)
      return invalid_field(key, "must be a whole number from " + std::to_string(min) + " to " + std::to_string(max));
    out = value->get_int64();
    return std::nullopt;
  };
  if (auto bad = whole("maxConcurrency", 1, 1024, connection.max_concurrency)) return std::move(*bad);
  if (auto bad = whole("timeoutMs", 1, 600000, connection.timeout_ms)) return std::move(*bad);
  if (auto bad = whole("maxRetries", 0, 10, connection.max_retries)) return std::move(*bad);
  std::int64_t rpm = 0;
  if (body.if_contains("requestsPerMinute") && !body.at("requestsPerMinute").is_null()) {
    if (auto bad = whole("requestsPerMinute", 1, 1000000, rpm)) return std::move(*bad);
    connection.requests_per_minute = rpm;
  }
  const auto* api_key = body.if_contains("apiKey");
  const auto* reference = body.if_contains("credentialRef");
  const bool has_key = api_key && !api_key->is_null();
  const bool has_reference = reference && !reference->is_null();
  if (has_key && has_reference) return invalid_field("body", "sets both apiKey and credentialRef; a connection has exactly one credential");
  if (creating && !has_key && !has_reference) return invalid_field("body", "needs a credential: apiKey or credentialRef");
  if (has_reference) {
    if (!reference->is_string() || !environment_variable_name(reference->get_string()))
      return invalid_field("credentialRef", "must be the name of an environment variable (letters, digits and _)");
    connection.credential_ref = std::string(reference->get_string());
  }
  if (has_key) {
    // Never quote the value: it is the secret.
    if (!api_key->is_string() || api_key->get_string().empty()) return invalid_field("apiKey", "must be a non-empty string");
    std::optional<SecretBox> box;
    try {
      box = SecretBox::from_environment(environment);
    } catch (const SecretBoxError& error) {
      return http_server::error_response(Status::internal_server_error, "encryption_key_unusable", error.what());
    }
    if (!box)
      return http_server::error_response(
          Status::bad_request, "encryption_key_missing",
          "an inline apiKey is stored encrypted, and KRINO_ENCRYPTION_KEY is not set on the server (the base64 of 32 random bytes: "
          "`openssl rand -base64 32`); set it, or use credentialRef to name an environment variable holding the key");
    connection.api_key_sealed = box->seal(api_key->get_string());
  }
  return connection;
}

std::string connection_json(const store::LlmConnection& connection) {
  boost::json::object out;
  out["id"] = connection.id;
  out["name"] = connection.name;
  out["provider"] = connection.provider;
  out["protocol"] = connection.provider == "openai_responses" ? "RESPONSES" : connection.provider == "openai" ? "CHAT_COMPLETIONS" : "MESSAGES";
  out["baseUrl"] = connection.base_url;
  out["model"] = connection.model;
  out["credential"] = connection.credential_ref ? "ENVIRONMENT" : connection.api_key_sealed ? "INLINE" : "NONE";
  if (connection.credential_ref) out["credentialRef"] = *connection.credential_ref;
  else out["credentialRef"] = nullptr;
  out["hasApiKey"] = connection.api_key_sealed.has_value();
  out["maxConcurrency"] = connection.max_concurrency;
  out["timeoutMs"] = connection.timeout_ms;
  out["maxRetries"] = connection.max_retries;
  if (connection.requests_per_minute) out["requestsPerMinute"] = *connection.requests_per_minute;
  else out["requestsPerMinute"] = nullptr;
  if (connection.tenant) out["tenantId"] = *connection.tenant;
  else out["tenantId"] = nullptr;
  out["createdAt"] = connection.created_at;
  out["updatedAt"] = connection.updated_at;
  return boost::json::serialize(out);
}

Response no_connection(const Request& request) { return not_found("LLM connection " + request.param("connectionId")); }

Response create_connection(store::Store& store, const Request& request, const store::Scope& scope, const EnvironmentLookup& environment) {
  auto read = read_connection(request, true, environment);
  if (auto* refusal = std::get_if<Response>(&read)) return std::move(*refusal);
  try {
    const store::LlmConnection made = store.create_llm_connection(scope, std::get<store::NewLlmConnection>(read));
    Response response = http_server::json_response(Status::created, connection_json(made));
    response.set(boost::beast::http::field::location, "/api/v1/llm-connections/" + made.id);
    return response;
  } catch (const store::StoreError& error) {
    return store_failure(error);
  }
}

Response replace_connection(store::Store& store, const Request& request, const store::Scope& scope, const EnvironmentLookup& environment) {
  const auto id = uuid_param(request, "connectionId");
  if (!id) return no_connection(request);
  auto read = read_connection(request, false, environment);
  if (auto* refusal = std::get_if<Response>(&read)) return std::move(*refusal);
  try {
    const auto updated = store.replace_llm_connection(scope, *id, std::get<store::NewLlmConnection>(read));
    if (!updated) return no_connection(request);
    return http_server::json_response(Status::ok, connection_json(*updated));
  } catch (const store::StoreError& error) {
    return store_failure(error);
  }
}

Response list_connections(store::Store& store, const store::Scope& scope) {
  std::string out = "[";
  for (const store::LlmConnection& connection : store.llm_connections(scope)) {
    if (out.size() > 1) out += ',';
    out += connection_json(connection);
  }
  out += ']';
  return http_server::json_response(Status::ok, std::move(out));
}

Response get_connection(store::Store& store, const Request& request, const store::Scope& scope) {
  const auto id = uuid_param(request, "connectionId");
  if (!id) return no_connection(request);
  const auto connection = store.llm_connection(scope, *id);
  if (!connection) return no_connection(request);
  return http_server::json_response(Status::ok, connection_json(*connection));
}

Response delete_connection(store::Store& store, const Request& request, const store::Scope& scope) {
  const auto id = uuid_param(request, "connectionId");
  if (!id || !store.delete_llm_connection(scope, *id)) return no_connection(request);
  Response response(Status::no_content, 11);
  response.prepare_payload();
  return response;
}

}  // namespace

void add_llm_connection_routes(http_server::Router& router, store::Store& store, const Authenticator& auth, EnvironmentLookup environment) {
  using boost::beast::http::verb;
  const std::string base = "/api/v1/llm-connections";
  const std::string one = base + "/{connectionId}";
  auto env = std::make_shared<EnvironmentLookup>(std::move(environment));
  router.add(verb::post, base, auth.guard(Access::write, [&store, env](const Request& r, const Principal& p) { return create_connection(store, r, p.scope(), *env); }));
  router.add(verb::get, base, auth.guard(Access::write, [&store](const Request&, const Principal& p) { return list_connections(store, p.scope()); }));
  router.add(verb::get, one, auth.guard(Access::write, [&store](const Request& r, const Principal& p) { return get_connection(store, r, p.scope()); }));
  router.add(verb::put, one, auth.guard(Access::write, [&store, env](const Request& r, const Principal& p) { return replace_connection(store, r, p.scope(), *env); }));
  router.add(verb::delete_, one, auth.guard(Access::write, [&store](const Request& r, const Principal& p) { return delete_connection(store, r, p.scope()); }));
}

}  // namespace krino::core::server_api
