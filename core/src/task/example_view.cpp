#include "krino/core/task/example_view.hpp"

namespace krino::core {

std::optional<ExampleView> ExampleView::from_text(std::string_view text, size_t max_depth) {
  bool repeated_section_key = false;
  std::optional<std::vector<JsonMember>> members = json_object_members(text, max_depth, &repeated_section_key);
  if (!members) return std::nullopt;
  ExampleView view;
  view.repeated_section_key_ = repeated_section_key;
  view.members_ = std::move(*members);
  return view;
}

ExampleView ExampleView::empty() { return ExampleView(); }

ExampleView ExampleView::rebased(std::string_view from, std::string_view to) const {
  ExampleView view;
  view.repeated_section_key_ = repeated_section_key_;
  view.members_.reserve(members_.size());
  for (const JsonMember& m : members_)
    view.members_.push_back(JsonMember{m.key, to.substr(static_cast<std::size_t>(m.value.data() - from.data()), m.value.size())});
  return view;
}

std::string_view ExampleView::section(std::string_view key) const {
  auto value = raw(key);
  return value && is_object_span(*value) ? *value : std::string_view("{}");
}

bool ExampleView::is_canonical() const {
  constexpr unsigned kId = 1, kInputs = 2, kExpected = 4, kMetadata = 8, kActual = 16, kTrace = 32, kDatasetItemId = 64;
  constexpr unsigned kMaps = kInputs | kExpected | kMetadata;
  // A key twice in a section: not passed on, so the resolver's decode reports it (which of the two
  // did the author mean?).
  if (repeated_section_key_) return false;
  unsigned seen = 0;
  for (const JsonMember& m : members_) {
    unsigned bit = 0;
    bool ok = false;
    if (m.key == "inputs") bit = kInputs, ok = is_object_span(m.value);
    else if (m.key == "expectedOutputs") bit = kExpected, ok = is_object_span(m.value);
    else if (m.key == "metadata") bit = kMetadata, ok = is_object_span(m.value);
    else if (m.key == "actualOutputs") bit = kActual, ok = is_object_span(m.value);
    else if (m.key == "id") bit = kId, ok = is_string_span(m.value) && m.value.size() > 2;
    else if (m.key == "trace") bit = kTrace, ok = m.value != "null";
    else if (m.key == "datasetItemId") bit = kDatasetItemId, ok = is_string_span(m.value) && m.value.size() > 2;
    if (!ok || (seen & bit) != 0) return false;
    seen |= bit;
  }
  return (seen & kMaps) == kMaps;
}

std::optional<std::string_view> ExampleView::id_token() const {
  auto value = raw("id");
  if (value && is_string_span(*value)) return value;
  return std::nullopt;
}

}  // namespace krino::core
