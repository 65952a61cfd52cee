#include "krino/core/task/exec_options.hpp"

#include "krino/core/common/error.hpp"

#include <krino/json_text.hpp>

#include <unistd.h>

#include <algorithm>
#include <set>

extern char** environ;

namespace krino::core {
namespace {

namespace json = boost::json;

const char* const kPrefix = "task exec: ";

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

std::int64_t whole_number(const json::value& value, const char* key, std::int64_t minimum, std::int64_t maximum,
                          const char* unit) {
  std::optional<std::int64_t> number;
  if (value.is_int64()) number = value.get_int64();
  else if (value.is_uint64() && value.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
    number = static_cast<std::int64_t>(value.get_uint64());
  if (!number || *number < minimum || *number > maximum)
    throw config_error(std::string(kPrefix) + "'" + key + "' must be a whole number of " + unit + " from " +
                       std::to_string(minimum) + " to " + std::to_string(maximum) + ", got " +
                       ::krino::json::to_compact_json(value));
  return *number;
}

// A week: longer waits are mistakes, and deadlines must stay far from the clock's range.
constexpr std::int64_t kMaxMilliseconds = 7LL * 24 * 3600 * 1000;

std::string text_option(const json::value& value, const char* key) {
  if (!value.is_string() || value.get_string().empty())
    throw config_error(std::string(kPrefix) + "'" + key + "' must be a non-empty string, got " +
                       ::krino::json::to_compact_json(value));
  return std::string(value.get_string());
}

std::vector<std::string> command_arguments(const json::value& value, std::string& as_written) {
  if (value.is_string()) {
    as_written = std::string(value.get_string());
    if (as_written.find_first_not_of(" \t\r\n") == std::string::npos)
      throw config_error(std::string(kPrefix) + "'command' is empty");
    return {"/bin/sh", "-c", as_written};
  }
  if (!value.is_array() || value.get_array().empty())
    throw config_error(std::string(kPrefix) +
                       "'command' must be a list of arguments ([python3, agent.py]) or a shell command line (a string)");
  std::vector<std::string> arguments;
  for (std::size_t i = 0; i < value.get_array().size(); ++i) {
    auto text = scalar_text(value.get_array()[i]);
    if (!text) {
      throw config_error(std::string(kPrefix) + "'command[" + std::to_string(i) + "]' must be a string, got " +
                         ::krino::json::to_compact_json(value.get_array()[i]));
    }
    as_written += (i > 0 ? " " : "") + *text;
    arguments.push_back(std::move(*text));
  }
  if (arguments.front().empty()) throw config_error(std::string(kPrefix) + "'command[0]' (the program) is empty");
  return arguments;
}

std::vector<std::string> build_environment(const json::object* overrides, bool inherit) {
  // NAME=value entries in a stable order: inherited ones first, as the parent has them.
  std::vector<std::string> entries;
  if (inherit)
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) entries.emplace_back(*entry);
  if (overrides == nullptr) return entries;
  for (const auto& [name, value] : *overrides) {
    const std::string key(name);
    if (key.empty() || key.find('=') != std::string::npos || key.find('\0') != std::string::npos)
      throw config_error(std::string(kPrefix) + "'env': '" + key + "' is not a valid variable name");
    std::erase_if(entries, [&](const std::string& e) { return e.size() > key.size() && e[key.size()] == '=' &&
                                                              e.compare(0, key.size(), key) == 0; });
    if (value.is_null()) continue;  // null removes an inherited variable
    auto text = scalar_text(value);
    if (!text)
      throw config_error(std::string(kPrefix) + "'env." + key + "' must be a string, a number, a boolean or null, got " +
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

ExecOptions ExecOptions::parse(const json::object& options, const std::filesystem::path& base_dir,
                               std::uint32_t parallelism) {
  static const std::set<std::string, std::less<>> known = {"command",       "mode", "timeout_ms", "kill_grace_ms",
                                                           "max_output_bytes", "cwd", "env", "inherit_env",
                                                           "workers",       "model"};
  for (const auto& [key, value] : options) {
    if (known.count(key) == 0) {
      std::string message = std::string(kPrefix) + "unknown option '" + std::string(key) + "'; known:";
      for (const auto& k : known) message += " " + k;
      throw config_error(message);
    }
  }

  ExecOptions parsed;
  auto command = options.find("command");
  if (command == options.end() || command->value().is_null())
    throw config_error(std::string(kPrefix) + "'command' is required (for example command: [python3, agent.py])");

  if (auto it = options.find("mode"); it != options.end() && !it->value().is_null()) {
    const std::string mode = text_option(it->value(), "mode");
    if (mode == "per_example") parsed.mode = Mode::per_example;
    else if (mode == "worker") parsed.mode = Mode::worker;
    else throw config_error(std::string(kPrefix) + "'mode' must be per_example or worker, got '" + mode + "'");
  }
  if (auto it = options.find("timeout_ms"); it != options.end() && !it->value().is_null())
    parsed.limits.timeout = std::chrono::milliseconds(whole_number(it->value(), "timeout_ms", 0, kMaxMilliseconds, "milliseconds"));
  if (auto it = options.find("kill_grace_ms"); it != options.end() && !it->value().is_null())
    parsed.limits.kill_grace = std::chrono::milliseconds(whole_number(it->value(), "kill_grace_ms", 0, kMaxMilliseconds, "milliseconds"));
  if (auto it = options.find("max_output_bytes"); it != options.end() && !it->value().is_null())
    parsed.limits.max_output_bytes = static_cast<std::size_t>(whole_number(it->value(), "max_output_bytes", 1, 1LL << 32, "bytes"));

  parsed.workers = std::max<std::uint32_t>(1, parallelism);
  if (auto it = options.find("workers"); it != options.end() && !it->value().is_null()) {
    if (parsed.mode != Mode::worker)
      throw config_error(std::string(kPrefix) + "'workers' applies only to mode: worker");
    parsed.workers = static_cast<std::uint32_t>(whole_number(it->value(), "workers", 1, 100000, "processes"));
  }
  if (auto it = options.find("model"); it != options.end() && !it->value().is_null())
    parsed.model = text_option(it->value(), "model");

  const std::filesystem::path base = std::filesystem::absolute(base_dir.empty() ? std::filesystem::path(".") : base_dir);
  parsed.process.working_directory = base.lexically_normal();
  if (auto it = options.find("cwd"); it != options.end() && !it->value().is_null()) {
    std::filesystem::path cwd(text_option(it->value(), "cwd"));
    parsed.process.working_directory = (cwd.is_relative() ? base / cwd : cwd).lexically_normal();
  }
  std::error_code error;
  if (!std::filesystem::is_directory(parsed.process.working_directory, error))
    throw config_error(std::string(kPrefix) + "'cwd': " + parsed.process.working_directory.string() +
                       " is not a directory");

  bool inherit = true;
  if (auto it = options.find("inherit_env"); it != options.end() && !it->value().is_null()) {
    if (!it->value().is_bool()) throw config_error(std::string(kPrefix) + "'inherit_env' must be true or false");
    inherit = it->value().get_bool();
  }
  const json::object* overrides = nullptr;
  if (auto it = options.find("env"); it != options.end() && !it->value().is_null()) {
    if (!it->value().is_object())
      throw config_error(std::string(kPrefix) + "'env' must be a mapping of variable names to values");
    overrides = &it->value().get_object();
  }
  parsed.process.environment = build_environment(overrides, inherit);
  // Set per call (docs/tasks/exec.md); an inherited value would shadow them.
  std::erase_if(parsed.process.environment, [](const std::string& e) {
    return e.rfind("KRINO_RUN_INDEX=", 0) == 0 || e.rfind("KRINO_ITEM_INDEX=", 0) == 0 || e.rfind("KRINO_SEED=", 0) == 0;
  });
  // An inherited PWD names krino's directory, not the program's; shells and some runtimes trust it.
  if (inherit && (overrides == nullptr || !overrides->contains("PWD"))) {
    std::erase_if(parsed.process.environment, [](const std::string& e) { return e.rfind("PWD=", 0) == 0; });
    parsed.process.environment.push_back("PWD=" + parsed.process.working_directory.string());
  }

  parsed.process.arguments = command_arguments(command->value(), parsed.command_text);
  const std::string& program = parsed.process.arguments.front();
  const std::string path = search_path(parsed.process.environment);
  auto executable = find_executable(program, parsed.process.working_directory, path);
  if (!executable) {
    if (program.find('/') != std::string::npos)
      throw config_error(std::string(kPrefix) + "'command': '" + program + "' is not an executable file (looked in " +
                         parsed.process.working_directory.string() + ")");
    throw config_error(std::string(kPrefix) + "'command': no program '" + program + "' on PATH (" + path + ")");
  }
  parsed.process.executable = std::move(*executable);
  return parsed;
}

}  // namespace krino::core
