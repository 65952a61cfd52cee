#pragma once
// What the API's route handlers share when reading a request and refusing it (internal to server_api).
#include "krino/core/common/json_scan.hpp"
#include "krino/core/http_server/http_exchange.hpp"
#include "krino/core/store/store_types.hpp"
#include "krino/core/store/uuid_v7.hpp"

#include <krino/event/values.hpp>
#include <krino/json_spans.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core::server_api {

using http_server::Request;
using http_server::Response;
using http_server::Status;
using krino::event::append_key;

// 404 {"error":"not_found","message":"no <what>"}.
inline http_server::Response not_found(const std::string& what) {
  return http_server::error_response(http_server::Status::not_found, "not_found", "no " + what);
}

// 400 {"error":"invalid_request","message":"<field> <message>"}.
inline http_server::Response invalid_field(std::string_view field, std::string_view message) {
  std::string text(field);
  text.append(" ").append(message);
  return http_server::error_response(http_server::Status::bad_request, "invalid_request", text);
}

// not_found -> 404, conflict -> 409, with the store's message.
inline http_server::Response store_failure(const store::StoreError& error) {
  using http_server::Status;
  if (error.kind() == store::StoreError::Kind::not_found) return http_server::error_response(Status::not_found, "not_found", error.what());
  return http_server::error_response(Status::conflict, "conflict", error.what());
}

// The body as a JSON object's top-level members, or nullopt (the response then says why).
inline std::optional<std::vector<JsonMember>> object_body(const http_server::Request& request, std::optional<http_server::Response>& refusal) {
  const std::string& body = request.message.body();
  std::optional<std::vector<JsonMember>> members = json_object_members(body, 64);
  if (!members) {
    refusal = invalid_field("body", "must be one JSON object");
    return std::nullopt;
  }
  if (krino::json::has_repeated_key(body)) {
    refusal = invalid_field("body", "has a key twice");
    return std::nullopt;
  }
  return members;
}

// An id from the path in canonical form; nullopt for anything that is not a UUID (a 404 without a
// database query).
inline std::optional<std::string> uuid_param(const http_server::Request& request, const std::string& name) {
  const auto id = store::parse_uuid(request.param(name));
  if (!id) return std::nullopt;
  return store::to_text(*id);
}

}  // namespace krino::core::server_api
