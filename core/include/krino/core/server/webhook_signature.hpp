#pragma once
// The headers that go with one alert delivery, and how a receiver checks them.
//
//   Content-Type: application/json
//   X-Krino-Delivery: <delivery id>     the same on every attempt: a receiver drops repeats by it
//   X-Krino-Timestamp: <unix seconds>   when this attempt was signed
// and, only when the webhook has a secret:
//   X-Dokimos-Signature: hex(HMAC-SHA256(secret, body))                 what Dokimos receivers check
//   X-Krino-Signature:   hex(HMAC-SHA256(secret, timestamp + "." + body))
//
// Both signatures are 64 lowercase hex digits over the raw body bytes. The Dokimos one covers the
// body alone, so a recorded request can be replayed at any later time; krino's covers the timestamp
// too, so a receiver that also rejects timestamps far from its clock (five minutes, say) refuses a
// replay. Each attempt is signed afresh, so a retry an hour later carries a current timestamp.
#include "krino/core/net/http_result.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core::server {

std::vector<HttpHeader> webhook_headers(std::string_view delivery_id, const std::optional<std::string>& secret, std::string_view body,
                                        std::int64_t unix_seconds);

// What X-Krino-Signature holds for `body` sent at `unix_seconds`.
std::string krino_signature(std::string_view secret, std::string_view body, std::int64_t unix_seconds);

}  // namespace krino::core::server
