#include "krino/core/server_api/auth.hpp"

#include "krino/core/common/content_digest.hpp"
#include "krino/core/common/error.hpp"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <array>

namespace krino::core::server_api {

namespace {

using http_server::Response;
using http_server::Status;

constexpr std::string_view kKeyPrefix = "krino_";
constexpr char kBase64Url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

Response unauthorized() {
  Response response = http_server::error_response(Status::unauthorized, "unauthorized", "Invalid or missing API key");
  response.set(boost::beast::http::field::www_authenticate, "Bearer");
  return response;
}

Response forbidden(std::string_view needed) {
  return http_server::error_response(Status::forbidden, "forbidden", "this key's role cannot do this; it needs " + std::string(needed));
}

bool constant_time_equal(const std::string& a, const std::string& b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

bool is_read(boost::beast::http::verb method) {
  using boost::beast::http::verb;
  return method == verb::get || method == verb::head || method == verb::options;
}

}  // namespace

std::string new_key_text() {
  std::array<unsigned char, 32> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) throw runtime_error("cannot make a key: the system's random source failed");
  std::string text(kKeyPrefix);
  // base64url without padding: 6 bits a character.
  std::uint32_t buffer = 0;
  int bits = 0;
  for (unsigned char byte : bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      text.push_back(kBase64Url[(buffer >> bits) & 0x3f]);
    }
  }
  if (bits > 0) text.push_back(kBase64Url[(buffer << (6 - bits)) & 0x3f]);
  return text;
}

std::string key_hash(std::string_view key_text) { return sha256_hex(key_text); }

Authenticator::Authenticator(store::Store& store, const AuthOptions& options)
    : store_(store), require_read_key_(options.require_read_key) {
  if (options.legacy_key && !options.legacy_key->empty()) legacy_key_hash_ = key_hash(*options.legacy_key);
}

std::variant<Principal, Response> Authenticator::check(const http_server::Request& request, Access access) const {
  const bool authenticated_mode = legacy_key_hash_.has_value() || store_.has_keys();
  if (!authenticated_mode) return Principal{};
  const std::optional<std::string_view> header = request.header("Authorization");
  const bool needs_key = access != Access::read || require_read_key_;
  constexpr std::string_view kBearer = "Bearer ";
  if (!header || header->substr(0, kBearer.size()) != kBearer) {
    if (!needs_key) return Principal{};
    return unauthorized();
  }
  const std::string hash = key_hash(header->substr(kBearer.size()));
  Principal principal;
  if (legacy_key_hash_ && constant_time_equal(hash, *legacy_key_hash_)) {
    principal.role = store::Role::admin;
  } else {
    const auto key = store_.key_by_hash(hash);
    // A wrong key is refused even on an open read: whoever sent it should learn it is wrong.
    if (!key || key->disabled_at) return unauthorized();
    principal.key_id = key->id;
    principal.tenant = key->tenant;
    principal.role = key->role;
  }
  if (access == Access::admin && principal.role != store::Role::admin) return forbidden("the ADMIN role");
  if (access == Access::write && principal.role == store::Role::viewer) return forbidden("the EDITOR or ADMIN role");
  return principal;
}

http_server::Handler Authenticator::guard(Access access,
                                          std::function<Response(const http_server::Request&, const Principal&)> handler) const {
  return [this, access, handler = std::move(handler)](const http_server::Request& request) {
    auto checked = check(request, access);
    if (auto* refusal = std::get_if<Response>(&checked)) return std::move(*refusal);
    const Principal& principal = std::get<Principal>(checked);
    Response response = handler(request, principal);
    if (!is_read(request.message.method())) {
      store::AuditEntry entry;
      entry.key_id = principal.key_id;
      entry.tenant = principal.tenant;
      entry.method = std::string(request.message.method_string());
      entry.path = request.path;
      entry.status = response.result_int();
      store_.record_write(entry);
    }
    return response;
  };
}

}  // namespace krino::core::server_api
