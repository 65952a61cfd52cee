#pragma once
// Secrets kept at rest by the results server (an LLM connection's inline API key), sealed with
// AES-256-GCM (OpenSSL EVP) under a key from the environment, KRINO_ENCRYPTION_KEY: the base64 of
// exactly 32 random bytes (`openssl rand -base64 32`). Each secret gets a random 96-bit nonce, and
// GCM's tag makes a changed or wrongly-keyed text fail to open instead of opening to garbage.
//
// Sealed text: "k1:<key id>:<base64 of nonce | ciphertext | tag>". The key id is the first 16 hex
// digits of the SHA-256 of the key, so a secret sealed under another key is named as such, and
// rotation is cheap: KRINO_ENCRYPTION_KEY_PREVIOUS (keys separated by commas) still opens what older
// keys sealed, while new secrets are sealed under the current one.
//
// Neither the key nor a secret is ever part of a message this throws.
#include "krino/core/common/environment_lookup.hpp"

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core {

// A secret cannot be opened (wrong key, no key, damaged text), or a key is unusable; the message
// says which and what to do.
class SecretBoxError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class SecretBox {
 public:
  static constexpr std::string_view kKeyVariable = "KRINO_ENCRYPTION_KEY";
  static constexpr std::string_view kPreviousKeysVariable = "KRINO_ENCRYPTION_KEY_PREVIOUS";

  // The box of KRINO_ENCRYPTION_KEY (and the previous keys), or nullopt when it is not set. Throws
  // SecretBoxError for a value that is not the base64 of 32 bytes (naming the variable only).
  static std::optional<SecretBox> from_environment(const EnvironmentLookup& environment = process_environment());
  // From the base64 text of a key; throws SecretBoxError when it is not 32 bytes of base64.
  explicit SecretBox(std::string_view key_base64, std::vector<std::string> previous_keys_base64 = {});

  std::string seal(std::string_view secret) const;
  // Throws SecretBoxError: not sealed text, sealed under a key this box does not have (naming the
  // key ids), or failing authentication (damaged, or the same key id with other bytes).
  std::string open(std::string_view sealed) const;
  const std::string& key_id() const { return keys_.front().id; }

 private:
  struct Key {
    std::array<unsigned char, 32> bytes{};
    std::string id;
  };
  static Key read_key(std::string_view base64, std::string_view variable);
  std::vector<Key> keys_;  // the current one first
};

}  // namespace krino::core
