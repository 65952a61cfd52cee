#pragma once
// One digest for "the same content": a JSON value in a canonical form (object members sorted by key,
// a whole double written as the integer it is) and the SHA-256 of bytes. Used where krino must
// recognise settings or requests it has seen before: the judge reply cache's keys, the fingerprint
// `krino run --resume` checks.
#include <boost/json/value.hpp>

#include <string>
#include <string_view>

namespace krino::core {

// `value` with every object's members sorted by key (recursively), doubles that hold a whole number
// of magnitude up to 2^53 turned into integers, and unsigned integers that fit an int64 into int64:
// values that mean the same serialise to the same bytes.
boost::json::value canonical_json(const boost::json::value& value);

// The SHA-256 of `data` as 64 lowercase hex digits. Throws a runtime error when OpenSSL cannot
// compute it (a FIPS build without SHA-256 is the only known case).
std::string sha256_hex(std::string_view data);

// The HMAC-SHA256 of `data` keyed with `key` (its bytes as given), as 64 lowercase hex digits:
// what signs a webhook's body. Throws a runtime error when OpenSSL cannot compute it.
std::string hmac_sha256_hex(std::string_view key, std::string_view data);

}  // namespace krino::core
