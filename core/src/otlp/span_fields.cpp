#include "krino/core/otlp/span_fields.hpp"

#include <krino/json_text.hpp>

#include <string_view>

namespace krino::core::otlp {

namespace {

constexpr std::string_view kProjectKeys[] = {"krino.project", "dokimos.project", "dokimos.project.name", "service.name"};
constexpr std::string_view kInputKeys[] = {"krino.input", "dokimos.input", "input.value", "gen_ai.prompt",
                                           "llm.input",   "input",         "prompt",      "gen_ai.input.messages"};
constexpr std::string_view kOutputKeys[] = {"krino.output", "dokimos.output", "output.value", "gen_ai.completion",
                                            "llm.output",   "output",         "completion",   "gen_ai.output.messages"};

std::optional<std::string> first_present(const boost::json::object& attributes, std::span<const std::string_view> keys) {
  for (std::string_view key : keys) {
    const boost::json::value* value = attributes.if_contains(key);
    if (value == nullptr || value->is_null()) continue;
    if (value->is_string()) return std::string(value->get_string());
    return krino::json::to_compact_json(*value);
  }
  return std::nullopt;
}

}  // namespace

std::span<const std::string_view> project_keys() { return kProjectKeys; }
std::span<const std::string_view> input_keys() { return kInputKeys; }
std::span<const std::string_view> output_keys() { return kOutputKeys; }

std::optional<std::string> project_of(const boost::json::object& resource_attributes) {
  for (std::string_view key : kProjectKeys) {
    const boost::json::value* value = resource_attributes.if_contains(key);
    if (value != nullptr && value->is_string() && !value->get_string().empty()) return std::string(value->get_string());
  }
  return std::nullopt;
}

std::optional<std::string> input_of(const boost::json::object& span_attributes) {
  return first_present(span_attributes, kInputKeys);
}

std::optional<std::string> output_of(const boost::json::object& span_attributes) {
  return first_present(span_attributes, kOutputKeys);
}

}  // namespace krino::core::otlp
