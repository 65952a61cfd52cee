#include "krino/core/process/process_options.hpp"

#include "krino/core/common/error.hpp"

#include <krino/json_text.hpp>

#include <unistd.h>

#include <algorithm>
#include <optional>
#include <vector>

extern char** environ;

namespace krino::core {
namespace {

namespace json = boost::json;

// Scalars as a user means them in a command line or an environment: YAML turns `3` and `true`
// into numbers and booleans, but `--retries 3` means the text "3".
std::optional<std::string> scalar_text(const json::value& value) {
  if (value.is_string()) return std::string(value.get_string());
  if (value.is_int64()) return std::to_string(value.get_int64());
  if (value.is_uint64()) return std::to_string(value.get_uint64());
  if (value.is_double()) {
    std::string text;
    ::krino::json::append_double(text, value.get_double());
    return text;
  }
  if (value.is_bool()) return std::string(value.get_bool() ? "true" : "false");
  return std::nullopt;
}

}  // namespace

std::int64_t whole_number_option(const json::value& value, std::string_view key, std::int64_t minimum,
                                 std::int64_t maximum, std::string_view unit, std::string_view prefix) {
  std::optional<std::int64_t> number;
  if (value.is_int64()) number = value.get_int64();
  else if (value.is_uint64() && value.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
    number = static_cast<std::int64_t>(value.get_uint64());
  if (!number || *number < minimum || *number > maximum)
    throw config_error(std::string(prefix) + "'" + std::string(key) + "' must be a whole number of " +
                       std::string(unit) + " from " + std::to_string(minimum) + " to " + std::to_string(maximum) +
                       ", got " + ::krino::json::to_compact_json(value));
  return *number;
}

std::string text_option(const json::value& value, std::string_view key, std::string_view prefix) {
  if (!value.is_string() || value.get_string().empty())
    throw config_error(std::string(prefix) + "'" + std::string(key) + "' must be a non-empty string, got " +
                       ::krino::json::to_compact_json(value));
  return std::string(value.get_string());
}

namespace {

std::vector<std::string> command_arguments(const json::value& value, std::string& as_written, std::string_view prefix) {
  if (value.is_string()) {
    as_written = std::string(value.get_string());
    if (as_written.find_first_not_of(" \t\r\n") == std::string::npos)
      throw config_error(std::string(prefix) + "'command' is empty");
    return {"/bin/sh", "-c", as_written};
  }
  if (!value.is_array() || value.get_array().empty())
    throw config_error(std::string(prefix) +
                       "'command' must be a list of arguments ([python3, agent.py]) or a shell command line (a string)");
  std::vector<std::string> arguments;
  for (std::size_t i = 0; i < value.get_array().size(); ++i) {
    auto text = scalar_text(value.get_array()[i]);
    if (!text) {
      throw config_error(std::string(prefix) + "'command[" + std::to_string(i) + "]' must be a string, got " +
                         ::krino::json::to_compact_json(value.get_array()[i]));
    }
    as_written += (i > 0 ? " " : "") + *text;
    arguments.push_back(std::move(*text));
  }
  if (arguments.front().empty()) throw config_error(std::string(prefix) + "'command[0]' (the program) is empty");
  return arguments;
}

std::vector<std::string> build_environment(const json::object* overrides, bool inherit, std::string_view prefix) {
  // NAME=value entries in a stable order: inherited ones first, as the parent has them.
  std::vector<std::string> entries;
  if (inherit)
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) entries.emplace_back(*entry);
  if (overrides == nullptr) return entries;
  for (const auto& [name, value] : *overrides) {
    const std::string key(name);
    if (key.empty() || key.find('=') != std::string::npos || key.find('\0') != std::string::npos)
      throw config_error(std::string(prefix) + "'env': '" + key + "' is not a valid variable name");
    std::erase_if(entries, [&](const std::string& e) { return e.size() > key.size() && e[key.size()] == '=' &&
                                                              e.compare(0, key.size(), key) == 0; });
    if (value.is_null()) continue;  // null removes an inherited variable
    auto text = scalar_text(value);
    if (!text)
      throw config_error(std::string(prefix) + "'env." + key + "' must be a string, a number, a boolean or null, got " +
                         ::krino::json::to_compact_json(value));
    entries.push_back(key + "=" + *text);
  }
  return entries;
}

std::string search_path(const std::vector<std::string>& environment) {
  for (const auto& entry : environment)
    if (entry.rfind("PATH=", 0) == 0) return entry.substr(5);
  // What execvp uses when PATH is unset.
  char buffer[256];
  const size_t size = ::confstr(_CS_PATH, buffer, sizeof(buffer));
  return size > 0 && size <= sizeof(buffer) ? std::string(buffer) : std::string("/bin:/usr/bin");
}

}  // namespace

CommandOptions read_command_options(const json::object& options, const std::filesystem::path& base_dir,
                                    std::string_view prefix) {
  CommandOptions parsed;
  auto command = options.find("command");
  if (command == options.end() || command->value().is_null())
    throw config_error(std::string(prefix) + "'command' is required (for example command: [python3, program.py])");
  const std::filesystem::path base = std::filesystem::absolute(base_dir.empty() ? std::filesystem::path(".") : base_dir);
  parsed.process.working_directory = base.lexically_normal();
  if (auto it = options.find("cwd"); it != options.end() && !it->value().is_null()) {
    std::filesystem::path cwd(text_option(it->value(), "cwd", prefix));
    parsed.process.working_directory = (cwd.is_relative() ? base / cwd : cwd).lexically_normal();
  }
  std::error_code error;
  if (!std::filesystem::is_directory(parsed.process.working_directory, error))
    throw config_error(std::string(prefix) + "'cwd': " + parsed.process.working_directory.string() +
                       " is not a directory");

  bool inherit = true;
  if (auto it = options.find("inherit_env"); it != options.end() && !it->value().is_null()) {
    if (!it->value().is_bool()) throw config_error(std::string(prefix) + "'inherit_env' must be true or false");
    inherit = it->value().get_bool();
  }
  const json::object* overrides = nullptr;
  if (auto it = options.find("env"); it != options.end() && !it->value().is_null()) {
    if (!it->value().is_object())
      throw config_error(std::string(prefix) + "'env' must be a mapping of variable names to values");
    overrides = &it->value().get_object();
  }
  parsed.process.environment = build_environment(overrides, inherit, prefix);
  // An inherited PWD names krino's directory, not the program's; shells and some runtimes trust it.
  if (inherit && (overrides == nullptr || !overrides->contains("PWD"))) {
    std::erase_if(parsed.process.environment, [](const std::string& e) { return e.rfind("PWD=", 0) == 0; });
    parsed.process.environment.push_back("PWD=" + parsed.process.working_directory.string());
  }
  parsed.process.arguments = command_arguments(command->value(), parsed.command_text, prefix);
  const std::string& program = parsed.process.arguments.front();
  const std::string path = search_path(parsed.process.environment);
  auto executable = find_executable(program, parsed.process.working_directory, path);
  if (!executable) {
    if (program.find('/') != std::string::npos)
      throw config_error(std::string(prefix) + "'command': '" + program + "' is not an executable file (looked in " +
                         parsed.process.working_directory.string() + ")");
    throw config_error(std::string(prefix) + "'command': no program '" + program + "' on PATH (" + path + ")");
  }
  parsed.process.executable = std::move(*executable);
  return parsed;
}

void read_limit_options(const json::object& options, ProcessLimits& limits, std::string_view prefix) {
  if (auto it = options.find("timeout_ms"); it != options.end() && !it->value().is_null())
    limits.timeout = std::chrono::milliseconds(
        whole_number_option(it->value(), "timeout_ms", 0, kMaxOptionMilliseconds, "milliseconds", prefix));
  if (auto it = options.find("kill_grace_ms"); it != options.end() && !it->value().is_null())
    limits.kill_grace = std::chrono::milliseconds(
        whole_number_option(it->value(), "kill_grace_ms", 0, kMaxOptionMilliseconds, "milliseconds", prefix));
  if (auto it = options.find("max_output_bytes"); it != options.end() && !it->value().is_null())
    limits.max_output_bytes =
        static_cast<std::size_t>(whole_number_option(it->value(), "max_output_bytes", 1, 1LL << 32, "bytes", prefix));
}

}  // namespace krino::core
