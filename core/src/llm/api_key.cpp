#include "krino/core/llm/api_key.hpp"

namespace krino::core {

std::string ApiKey::redact(std::string_view text) const {
  std::string out(text);
  if (value_.empty()) return out;
  static constexpr std::string_view kMask = "[redacted]";
  for (auto at = out.find(value_); at != std::string::npos; at = out.find(value_, at + kMask.size()))
    out.replace(at, value_.size(), kMask);
  return out;
}

}  // namespace krino::core
