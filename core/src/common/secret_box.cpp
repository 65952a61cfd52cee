#include "krino/core/common/secret_box.hpp"

#include "krino/core/common/content_digest.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <memory>

namespace krino::core {

namespace {

constexpr std::size_t kNonceBytes = 12;
constexpr std::size_t kTagBytes = 16;
constexpr std::string_view kFormat = "k1";
// Bound into every tag: a sealed text means "an inline LLM key of krino", nothing else.
constexpr std::string_view kAssociatedData = "krino secret v1";

using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

CipherContext new_context() {
  CipherContext context(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
  if (!context) throw SecretBoxError("OpenSSL could not make a cipher context");
  return context;
}

std::string base64_encode(const unsigned char* data, std::size_t size) {
  std::string out(4 * ((size + 2) / 3), '\0');
  const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), data, static_cast<int>(size));
  out.resize(static_cast<std::size_t>(written));
  return out;
}

// Strict base64 (padding included, nothing else); nullopt for anything else.
std::optional<std::string> base64_decode(std::string_view text) {
  std::string trimmed(text);
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == '\r' || trimmed.back() == ' ')) trimmed.pop_back();
  if (trimmed.empty() || trimmed.size() % 4 != 0) return std::nullopt;
  std::string out(trimmed.size() / 4 * 3, '\0');
  const int written = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()), reinterpret_cast<const unsigned char*>(trimmed.data()),
                                      static_cast<int>(trimmed.size()));
  if (written < 0) return std::nullopt;
  // EVP_DecodeBlock counts padding as zero bytes.
  std::size_t size = static_cast<std::size_t>(written);
  if (trimmed.ends_with("==")) size -= 2;
  else if (trimmed.ends_with("=")) size -= 1;
  out.resize(size);
  return out;
}

}  // namespace

SecretBox::Key SecretBox::read_key(std::string_view base64, std::string_view variable) {
  const auto bytes = base64_decode(base64);
  if (!bytes || bytes->size() != 32)
    throw SecretBoxError(std::string(variable) + " must be the base64 of exactly 32 bytes (make one with `openssl rand -base64 32`)");
  Key key;
  std::copy(bytes->begin(), bytes->end(), key.bytes.begin());
  key.id = sha256_hex(*bytes).substr(0, 16);
  return key;
}

SecretBox::SecretBox(std::string_view key_base64, std::vector<std::string> previous_keys_base64) {
  keys_.push_back(read_key(key_base64, kKeyVariable));
  for (const std::string& previous : previous_keys_base64) keys_.push_back(read_key(previous, kPreviousKeysVariable));
}

std::optional<SecretBox> SecretBox::from_environment(const EnvironmentLookup& environment) {
  const auto key = environment(std::string(kKeyVariable));
  if (!key || key->empty()) return std::nullopt;
  std::vector<std::string> previous;
  if (const auto list = environment(std::string(kPreviousKeysVariable))) {
    std::string_view rest = *list;
    while (!rest.empty()) {
      const std::size_t comma = rest.find(',');
      const std::string_view one = rest.substr(0, comma);
      if (!one.empty()) previous.emplace_back(one);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  return SecretBox(*key, std::move(previous));
}

std::string SecretBox::seal(std::string_view secret) const {
  const Key& key = keys_.front();
  std::string blob(kNonceBytes + secret.size() + kTagBytes, '\0');
  auto* nonce = reinterpret_cast<unsigned char*>(blob.data());
  if (RAND_bytes(nonce, static_cast<int>(kNonceBytes)) != 1) throw SecretBoxError("OpenSSL could not draw a random nonce");
  CipherContext context = new_context();
  int length = 0;
  auto* out = nonce + kNonceBytes;
  if (EVP_EncryptInit_ex(context.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(kNonceBytes), nullptr) != 1 ||
      EVP_EncryptInit_ex(context.get(), nullptr, nullptr, key.bytes.data(), nonce) != 1 ||
      EVP_EncryptUpdate(context.get(), nullptr, &length, reinterpret_cast<const unsigned char*>(kAssociatedData.data()),
                        static_cast<int>(kAssociatedData.size())) != 1 ||
      EVP_EncryptUpdate(context.get(), out, &length, reinterpret_cast<const unsigned char*>(secret.data()), static_cast<int>(secret.size())) != 1 ||
      EVP_EncryptFinal_ex(context.get(), out + length, &length) != 1 ||
      EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(kTagBytes), out + secret.size()) != 1)
    throw SecretBoxError("OpenSSL could not seal a secret with AES-256-GCM");
  std::string sealed(kFormat);
  sealed.append(":").append(key.id).append(":").append(base64_encode(reinterpret_cast<const unsigned char*>(blob.data()), blob.size()));
  return sealed;
}

std::string SecretBox::open(std::string_view sealed) const {
  const std::size_t first = sealed.find(':');
  const std::size_t second = first == std::string_view::npos ? first : sealed.find(':', first + 1);
  if (second == std::string_view::npos || sealed.substr(0, first) != kFormat) throw SecretBoxError("the stored secret is not in krino's sealed format");
  const std::string_view key_id = sealed.substr(first + 1, second - first - 1);
  const Key* key = nullptr;
  for (const Key& candidate : keys_)
    if (candidate.id == key_id) key = &candidate;
  if (!key)
    throw SecretBoxError("the secret was sealed under encryption key id " + std::string(key_id) + ", but " + std::string(kKeyVariable) +
                         " has id " + keys_.front().id + "; set the key it was sealed with (or list it in " +
                         std::string(kPreviousKeysVariable) + "), or store the secret again");
  const auto blob = base64_decode(sealed.substr(second + 1));
  if (!blob || blob->size() < kNonceBytes + kTagBytes) throw SecretBoxError("the stored secret is damaged (not base64 of a sealed secret)");
  const auto* nonce = reinterpret_cast<const unsigned char*>(blob->data());
  const std::size_t size = blob->size() - kNonceBytes - kTagBytes;
  const auto* ciphertext = nonce + kNonceBytes;
  std::string secret(size, '\0');
  CipherContext context = new_context();
  int length = 0;
  std::array<unsigned char, kTagBytes> tag{};
  std::copy(ciphertext + size, ciphertext + size + kTagBytes, tag.begin());
  const bool ok = EVP_DecryptInit_ex(context.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) == 1 &&
                  EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(kNonceBytes), nullptr) == 1 &&
                  EVP_DecryptInit_ex(context.get(), nullptr, nullptr, key->bytes.data(), nonce) == 1 &&
                  EVP_DecryptUpdate(context.get(), nullptr, &length, reinterpret_cast<const unsigned char*>(kAssociatedData.data()),
                                    static_cast<int>(kAssociatedData.size())) == 1 &&
                  EVP_DecryptUpdate(context.get(), reinterpret_cast<unsigned char*>(secret.data()), &length, ciphertext, static_cast<int>(size)) == 1 &&
                  EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(kTagBytes), tag.data()) == 1 &&
                  EVP_DecryptFinal_ex(context.get(), reinterpret_cast<unsigned char*>(secret.data()) + length, &length) == 1;
  if (!ok)
    throw SecretBoxError("the stored secret does not open with encryption key id " + key->id +
                         ": it was changed, or sealed under another key with the same id");
  return secret;
}

}  // namespace krino::core
