#include "krino/core/server/webhook_signature.hpp"

#include "krino/core/common/content_digest.hpp"

namespace krino::core::server {

std::string krino_signature(std::string_view secret, std::string_view body, std::int64_t unix_seconds) {
  std::string signed_text = std::to_string(unix_seconds);
  signed_text.append(".").append(body);
  return hmac_sha256_hex(secret, signed_text);
}

std::vector<HttpHeader> webhook_headers(std::string_view delivery_id, const std::optional<std::string>& secret, std::string_view body,
                                        std::int64_t unix_seconds) {
  std::vector<HttpHeader> headers{{"Content-Type", "application/json"},
                                  {"X-Krino-Delivery", std::string(delivery_id)},
                                  {"X-Krino-Timestamp", std::to_string(unix_seconds)}};
  if (secret) {
    headers.push_back({"X-Dokimos-Signature", hmac_sha256_hex(*secret, body)});
    headers.push_back({"X-Krino-Signature", krino_signature(*secret, body, unix_seconds)});
  }
  return headers;
}

}  // namespace krino::core::server
