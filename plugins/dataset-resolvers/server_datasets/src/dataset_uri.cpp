#include "dataset_uri.hpp"

#include <krino/plugin/error.hpp>

#include <charconv>

namespace krino::server_datasets {

namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

[[noreturn]] void bad_ref(std::string_view shown_as, std::string_view why) {
  std::string message(shown_as);
  message.append(": ").append(why);
  throw krino::invalid_argument(message);
}

}  // namespace

std::string DatasetRef::text() const {
  std::string out = name;
  out.append("@").append(version ? std::to_string(*version) : std::string("latest"));
  return out;
}

DatasetRef parse_dataset_ref(std::string_view ref, std::string_view shown_as) {
  const std::size_t at = ref.rfind('@');
  if (at == std::string_view::npos) bad_ref(shown_as, "needs a version: name@N or name@latest");
  DatasetRef parsed;
  parsed.name = std::string(ref.substr(0, at));
  if (parsed.name.empty() || parsed.name.size() > 128)
    bad_ref(shown_as, "the dataset name must be 1 to 128 of the characters A-Z a-z 0-9 . _ -");
  for (const char c : parsed.name)
    if (!is_name_char(c)) bad_ref(shown_as, "the dataset name must be 1 to 128 of the characters A-Z a-z 0-9 . _ -");
  const std::string_view version = ref.substr(at + 1);
  if (version == "latest") return parsed;
  std::int64_t number = 0;
  const auto [end, ec] = std::from_chars(version.data(), version.data() + version.size(), number);
  if (version.empty() || ec != std::errc() || end != version.data() + version.size() || number < 1)
    bad_ref(shown_as, "the version must be a positive whole number or 'latest'");
  parsed.version = number;
  return parsed;
}

DatasetRef parse_dataset_uri(std::string_view uri) {
  constexpr std::string_view kScheme = "dataset://";
  if (uri.substr(0, kScheme.size()) != kScheme) bad_ref(uri, "is not a dataset:// URI");
  return parse_dataset_ref(uri.substr(kScheme.size()), uri);
}

}  // namespace krino::server_datasets
