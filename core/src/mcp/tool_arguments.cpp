#include "krino/core/mcp/tool_arguments.hpp"

#include "krino/core/mcp/tool_registry.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace krino::core::mcp {
namespace json = boost::json;

std::optional<std::string> string_argument(const json::object& arguments, std::string_view name) {
  const json::value* v = arguments.if_contains(name);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}

std::optional<double> number_argument(const json::object& arguments, std::string_view name) {
  const json::value* v = arguments.if_contains(name);
  if (v == nullptr || !v->is_number()) return std::nullopt;
  return v->to_number<double>();
}

std::optional<std::int64_t> integer_argument(const json::object& arguments, std::string_view name) {
  const json::value* v = arguments.if_contains(name);
  if (v == nullptr) return std::nullopt;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64()) return static_cast<std::int64_t>(std::min<std::uint64_t>(v->get_uint64(), INT64_MAX));
  if (v->is_double()) return static_cast<std::int64_t>(v->get_double());  // 3.0: the schema's "integer" allows it
  return std::nullopt;
}

std::optional<bool> bool_argument(const json::object& arguments, std::string_view name) {
  const json::value* v = arguments.if_contains(name);
  if (v == nullptr || !v->is_bool()) return std::nullopt;
  return v->get_bool();
}

const json::object* object_argument(const json::object& arguments, std::string_view name) {
  const json::value* v = arguments.if_contains(name);
  return v != nullptr && v->is_object() ? &v->get_object() : nullptr;
}

void require_readable_file(std::string_view parameter, const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  std::string problem;
  if (ec) problem = ec.message();
  else if (std::filesystem::is_directory(status)) problem = "it is a directory";
  else if (!std::ifstream(path, std::ios::binary)) problem = std::strerror(errno);
  if (problem.empty()) return;
  std::string message(parameter);
  message.append(": cannot read '").append(path).append("': ").append(problem);
  throw ToolError(message);
}

}  // namespace krino::core::mcp
