// Inline secrets at rest: AES-256-GCM under KRINO_ENCRYPTION_KEY, a fresh nonce per secret, a key
// id that names the key a secret needs, rotation through KRINO_ENCRYPTION_KEY_PREVIOUS, and no key
// or secret in any message.
#include "krino/core/common/secret_box.hpp"

#include <boost/test/unit_test.hpp>

#include <map>

using krino::core::SecretBox;
using krino::core::SecretBoxError;

namespace {

// `openssl rand -base64 32`, twice.
constexpr const char* kKeyA = "q0kS9Ue0m4b3nYJ4eQ3sB3y8xJ0m2W5r0cXzQ9bq6Yk=";
constexpr const char* kKeyB = "7fK2mV9xQ1wE4rT6yU8iO0pA3sD5fG7hJ9kL1zX3cV0=";
constexpr const char* kSecret = "sk-live-never-show-me-0123456789";

krino::core::EnvironmentLookup secret_env(std::map<std::string, std::string> values) {
  return [values = std::move(values)](const std::string& name) -> std::optional<std::string> {
    const auto found = values.find(name);
    if (found == values.end()) return std::nullopt;
    return found->second;
  };
}

std::string failure_of(const SecretBox& box, const std::string& sealed) {
  try {
    box.open(sealed);
  } catch (const SecretBoxError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(secret_box)

BOOST_AUTO_TEST_CASE(a_sealed_secret_opens_to_itself_and_never_shows_it) {
  const SecretBox box(kKeyA);
  const std::string sealed = box.seal(kSecret);
  BOOST_TEST(sealed.find(kSecret) == std::string::npos);
  BOOST_TEST(sealed.rfind("k1:" + box.key_id() + ":", 0) == 0u);
  BOOST_TEST(box.open(sealed) == kSecret);
  BOOST_TEST(box.seal(kSecret) != sealed);  // a fresh nonce each time
  BOOST_TEST(box.open(box.seal("")) == "");
}

BOOST_AUTO_TEST_CASE(the_wrong_key_is_a_clear_error_naming_both_key_ids_and_no_secret) {
  const std::string sealed = SecretBox(kKeyA).seal(kSecret);
  const SecretBox other(kKeyB);
  const std::string message = failure_of(other, sealed);
  BOOST_TEST(message.find("sealed under encryption key id " + SecretBox(kKeyA).key_id()) != std::string::npos, message);
  BOOST_TEST(message.find(other.key_id()) != std::string::npos, message);
  BOOST_TEST(message.find(kSecret) == std::string::npos);
  BOOST_TEST(message.find(kKeyA) == std::string::npos);
  BOOST_TEST(message.find(kKeyB) == std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_changed_byte_fails_authentication) {
  const SecretBox box(kKeyA);
  std::string sealed = box.seal(kSecret);
  sealed[sealed.size() - 6] = sealed[sealed.size() - 6] == 'A' ? 'B' : 'A';
  BOOST_TEST(failure_of(box, sealed).find("does not open") != std::string::npos, failure_of(box, sealed));
  BOOST_TEST(failure_of(box, "plain text").find("not in krino's sealed format") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(previous_keys_open_old_secrets_and_new_ones_use_the_current_key) {
  const std::string old = SecretBox(kKeyA).seal(kSecret);
  const auto rotated = SecretBox::from_environment(secret_env({{"KRINO_ENCRYPTION_KEY", kKeyB}, {"KRINO_ENCRYPTION_KEY_PREVIOUS", kKeyA}}));
  BOOST_REQUIRE(rotated.has_value());
  BOOST_TEST(rotated->open(old) == kSecret);
  BOOST_TEST(rotated->seal(kSecret).rfind("k1:" + SecretBox(kKeyB).key_id() + ":", 0) == 0u);
}

BOOST_AUTO_TEST_CASE(no_key_is_none_and_a_malformed_key_names_the_variable_only) {
  BOOST_TEST(!SecretBox::from_environment(secret_env({})).has_value());
  for (const char* bad : {"short", "q0kS9Ue0m4b3nYJ4eQ3sB3y8xJ0m2W5r0cXzQ9bq6Y==", "not base64 at all!!!!!!!!!!!!!!!!!!!!!!!!!!"}) {
    try {
      SecretBox::from_environment(secret_env({{"KRINO_ENCRYPTION_KEY", bad}}));
      BOOST_FAIL("a malformed key was accepted");
    } catch (const SecretBoxError& error) {
      const std::string message = error.what();
      BOOST_TEST(message.find("KRINO_ENCRYPTION_KEY must be the base64 of exactly 32 bytes") != std::string::npos, message);
      BOOST_TEST(message.find(bad) == std::string::npos);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
