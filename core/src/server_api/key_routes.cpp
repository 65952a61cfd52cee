#include "krino/core/server_api/key_routes.hpp"

#include "json_out.hpp"
#include "route_helpers.hpp"
#include "krino/core/common/json_scan.hpp"
#include "krino/core/store/uuid_v7.hpp"

#include <krino/json_spans.hpp>

#include <boost/beast/http/verb.hpp>

namespace krino::core::server_api {

namespace {


Response bad(std::string_view message) { return http_server::error_response(Status::bad_request, "invalid_request", message); }

void append_api_key(std::string& out, const store::ApiKey& key) {
  out += "{\"id\":";
  krino::json::append_json_string(out, key.id);
  append_key(out, "name");
  krino::json::append_json_string(out, key.name);
  append_key(out, "role");
  krino::json::append_json_string(out, store::role_name(key.role));
  append_key(out, "tenantId");
  append_optional_text(out, key.tenant);
  append_key(out, "createdAt");
  krino::json::append_json_string(out, key.created_at);
  append_key(out, "disabledAt");
  append_optional_text(out, key.disabled_at);
}

Response create_key(store::Store& store, const Request& request, const Principal& caller) {
  const std::string& body = request.message.body();
  const std::optional<std::vector<JsonMember>> read = json_object_members(body, 64);
  if (!read || krino::json::has_repeated_key(body)) return bad("body must be one JSON object");
  const std::vector<JsonMember>& members = *read;
  const auto name = member(members, "name");
  if (!name || !is_string_span(*name)) return bad("name is required and must be a string");
  const std::string name_text = krino::json::string_token_text(*name);
  if (name_text.find_first_not_of(" \t\r\n") == std::string::npos) return bad("name must not be blank");
  const auto role_token = member(members, "role");
  if (!role_token || !is_string_span(*role_token)) return bad("role is required: VIEWER, EDITOR or ADMIN");
  const auto role = store::parse_role(krino::json::string_token_text(*role_token));
  if (!role) return bad("role must be VIEWER, EDITOR or ADMIN");
  std::optional<std::string> tenant;
  if (const auto token = member(members, "tenantId"); token && *token != "null") {
    if (!is_string_span(*token)) return bad("tenantId must be a string");
    tenant = krino::json::string_token_text(*token);
    if (tenant->find_first_not_of(" \t\r\n") == std::string::npos) return bad("tenantId must not be blank");
  }
  // A tenant's admin makes keys of its own tenant only: a shared key, or another tenant's, would
  // see rows it cannot see itself.
  if (caller.tenant) {
    if (tenant && *tenant != *caller.tenant)
      return http_server::error_response(Status::forbidden, "forbidden", "a tenant's key can only make keys of its own tenant");
    tenant = caller.tenant;
  }
  const std::string text = new_key_text();
  const store::ApiKey key = store.create_key(name_text, *role, tenant, key_hash(text));
  std::string out;
  append_api_key(out, key);
  append_key(out, "key");
  krino::json::append_json_string(out, text);
  out += '}';
  Response response = http_server::json_response(Status::created, std::move(out));
  response.set(boost::beast::http::field::location, "/api/v1/api-keys/" + key.id);
  return response;
}

Response list_keys(store::Store& store, const store::Scope& scope) {
  std::string out = "[";
  for (const store::ApiKey& key : store.keys(scope)) {
    if (out.size() > 1) out += ',';
    append_api_key(out, key);
    out += '}';
  }
  out += ']';
  return http_server::json_response(Status::ok, std::move(out));
}

std::optional<std::string> key_id(const Request& request) {
  const auto id = store::parse_uuid(request.param("keyId"));
  if (!id) return std::nullopt;
  return store::to_text(*id);
}

Response no_key(const Request& request) { return not_found("key " + request.param("keyId")); }

}  // namespace

void add_key_routes(http_server::Router& router, store::Store& store, const Authenticator& auth) {
  using boost::beast::http::verb;
  router.add(verb::post, "/api/v1/api-keys", auth.guard(Access::admin, [&store](const Request& r, const Principal& p) { return create_key(store, r, p); }));
  router.add(verb::get, "/api/v1/api-keys", auth.guard(Access::admin, [&store](const Request&, const Principal& p) { return list_keys(store, p.scope()); }));
  router.add(verb::post, "/api/v1/api-keys/{keyId}/disable", auth.guard(Access::admin, [&store](const Request& r, const Principal& p) {
    const auto id = key_id(r);
    if (!id || !store.disable_key(p.scope(), *id)) return no_key(r);
    return http_server::json_response(Status::ok, R"({"status":"disabled"})");
  }));
  router.add(verb::delete_, "/api/v1/api-keys/{keyId}", auth.guard(Access::admin, [&store](const Request& r, const Principal& p) {
    const auto id = key_id(r);
    if (!id || !store.delete_key(p.scope(), *id)) return no_key(r);
    Response response(Status::no_content, 11);
    response.prepare_payload();
    return response;
  }));
}

}  // namespace krino::core::server_api
