#pragma once
// Reading a tool's arguments once its input schema has checked their types: only presence is left
// to ask about. And the checks that a schema cannot make (a file that can be read).
#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace krino::core::mcp {

std::optional<std::string> string_argument(const boost::json::object& arguments, std::string_view name);
std::optional<double> number_argument(const boost::json::object& arguments, std::string_view name);
std::optional<std::int64_t> integer_argument(const boost::json::object& arguments, std::string_view name);
std::optional<bool> bool_argument(const boost::json::object& arguments, std::string_view name);
const boost::json::object* object_argument(const boost::json::object& arguments, std::string_view name);

// Throws ToolError naming the parameter and the file when `path` is not a readable regular file.
void require_readable_file(std::string_view parameter, const std::string& path);

}  // namespace krino::core::mcp
