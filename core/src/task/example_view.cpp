#include "krino/core/task/example_view.hpp"

namespace krino::core {

std::optional<ExampleView> ExampleView::from_text(std::string_view text) {
  if (!is_json_object(text)) return std::nullopt;
  ExampleView view;
  view.members_ = top_level_members(text);
  return view;
}

ExampleView ExampleView::empty() { return ExampleView(); }

std::string_view ExampleView::section(std::string_view key) const {
  auto value = raw(key);
  return value && is_object_span(*value) ? *value : std::string_view("{}");
}

std::optional<std::string_view> ExampleView::id_token() const {
  auto value = raw("id");
  if (value && is_string_span(*value)) return value;
  return std::nullopt;
}

}  // namespace krino::core
