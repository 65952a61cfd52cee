#pragma once
// Who may call the API. Open until the first key exists or KRINO_API_KEY is set; then a request
// shows its key as `Authorization: Bearer <key>`:
//   reads (GET, HEAD, OPTIONS) stay open unless the server requires a key for them too;
//   writes need EDITOR or ADMIN; key management (listing included) needs ADMIN.
// No key, an unknown or a disabled key: 401. A valid key whose role is too small: 403.
// Keys are "krino_" and 43 characters of base64url (256 random bits); only their SHA-256 is kept.
#include "krino/core/http_server/router.hpp"
#include "krino/core/store/store.hpp"

#include <optional>
#include <string>
#include <variant>

namespace krino::core::server_api {

enum class Access { read, write, admin };

// The caller of one request.
struct Principal {
  std::optional<std::string> key_id;  // none: open mode, or the KRINO_API_KEY key
  std::optional<std::string> tenant;  // none: sees every tenant's rows
  store::Role role = store::Role::admin;

  // The rows this caller sees and stamps (store::Scope).
  store::Scope scope() const { return store::Scope{tenant}; }
};

struct AuthOptions {
  std::optional<std::string> legacy_key;  // KRINO_API_KEY: an ADMIN key without a tenant
  bool require_read_key = false;          // --require-read-key
};

class Authenticator {
 public:
  Authenticator(store::Store& store, const AuthOptions& options);

  // The caller, or the 401/403 response to send instead.
  std::variant<Principal, http_server::Response> check(const http_server::Request& request, Access access) const;

  // A handler that runs only for callers allowed `access`, and whose writes go to the audit log.
  http_server::Handler guard(Access access, std::function<http_server::Response(const http_server::Request&, const Principal&)> handler) const;

 private:
  store::Store& store_;
  std::optional<std::string> legacy_key_hash_;
  bool require_read_key_;
};

// A new key's text, from the system's random source.
std::string new_key_text();
// What the store keeps of a key: the hex SHA-256 of its text.
std::string key_hash(std::string_view key_text);

}  // namespace krino::core::server_api
