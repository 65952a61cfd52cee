#include "krino/core/llm/api_key.hpp"

#include <algorithm>
#include <cctype>

namespace krino::core {
namespace {

constexpr std::string_view kMask = "[redacted]";

bool same_letters(std::string_view text, std::size_t at, std::string_view word) {
  if (at + word.size() > text.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[at + i])) != word[i]) return false;
  return true;
}

// Characters a token or key value is made of (RFC 6750 b64token, and the '_' keys use).
bool is_token_character(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return std::isalnum(byte) != 0 || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '=';
}

// Masks the value that follows each occurrence of `name` (case-insensitive), after the separators
// a header echo puts between them: `Bearer sk-...`, `x-api-key: ...`, `"x-api-key":"..."`.
void mask_values_after(std::string& text, std::string_view name, std::string_view separators) {
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (!same_letters(text, at, name)) continue;
    std::size_t value = at + name.size();
    while (value < text.size() && separators.find(text[value]) != std::string_view::npos) ++value;
    std::size_t end = value;
    while (end < text.size() && is_token_character(text[end])) ++end;
    if (end == value || (end - value == kMask.size() && text.compare(value, end - value, kMask) == 0)) continue;
    text.replace(value, end - value, kMask);
    at = value + kMask.size() - 1;
  }
}

}  // namespace

std::string ApiKey::redact(std::string_view text) const {
  std::string out(text);
  if (!value_.empty())
    for (auto at = out.find(value_); at != std::string::npos; at = out.find(value_, at + kMask.size()))
      out.replace(at, value_.size(), kMask);
  // Credentials this key is not (a proxy's own, another header's), echoed back in a body.
  mask_values_after(out, "bearer", " ");
  mask_values_after(out, "x-api-key", "\"': =");
  return out;
}

}  // namespace krino::core
