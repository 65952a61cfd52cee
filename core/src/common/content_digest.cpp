#include "krino/core/common/content_digest.hpp"

#include "krino/core/common/error.hpp"

#include <boost/json.hpp>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace krino::core {
namespace json = boost::json;

namespace {
// Beyond 2^53 a double no longer holds every integer, so it stays a double.
constexpr double kExactIntegerLimit = 9007199254740992.0;
}  // namespace

json::value canonical_json(const json::value& v) {
  switch (v.kind()) {
    case json::kind::object: {
      const auto& in = v.get_object();
      std::vector<std::string_view> keys;
      keys.reserve(in.size());
      for (const auto& member : in) keys.push_back(member.key());
      std::sort(keys.begin(), keys.end());
      json::object out;
      out.reserve(keys.size());
      for (auto key : keys) out[key] = canonical_json(in.at(key));
      return out;
    }
    case json::kind::array: {
      json::array out;
      out.reserve(v.get_array().size());
      for (const auto& item : v.get_array()) out.push_back(canonical_json(item));
      return out;
    }
    case json::kind::double_: {
      const double d = v.get_double();
      if (std::isfinite(d) && std::trunc(d) == d && std::fabs(d) <= kExactIntegerLimit) return static_cast<int64_t>(d);
      return d;
    }
    case json::kind::uint64:
      if (v.get_uint64() <= static_cast<uint64_t>(INT64_MAX)) return static_cast<int64_t>(v.get_uint64());
      return v;
    default:
      return v;
  }
}

namespace {

std::string lowercase_hex(const unsigned char* bytes, unsigned int length) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(length * 2);
  for (unsigned int i = 0; i < length; ++i) {
    hex.push_back(kHex[bytes[i] >> 4]);
    hex.push_back(kHex[bytes[i] & 0x0f]);
  }
  return hex;
}

}  // namespace

std::string sha256_hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(), nullptr) != 1)
    throw runtime_error("OpenSSL cannot compute SHA-256 here");
  return lowercase_hex(digest, length);
}

std::string hmac_sha256_hex(std::string_view key, std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  // HMAC() takes an int key length; an empty key is valid (the key pointer must still be non-null).
  static constexpr unsigned char kNoKey = 0;
  const void* key_bytes = key.empty() ? static_cast<const void*>(&kNoKey) : static_cast<const void*>(key.data());
  if (HMAC(EVP_sha256(), key_bytes, static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest,
           &length) == nullptr)
    throw runtime_error("OpenSSL cannot compute HMAC-SHA256 here");
  return lowercase_hex(digest, length);
}

}  // namespace krino::core
