#pragma once
// The options that say which program to start and how to bound it, read the same way wherever a
// user writes them (the exec task, a subprocess evaluator): `command`, `cwd`, `env`, `inherit_env`,
// `timeout_ms`, `kill_grace_ms`, `max_output_bytes`. Resolved once, while configuring, so a typo is
// a configuration error before the run. Every error message starts with `prefix` ("task exec: ").
#include "krino/core/process/process_limits.hpp"
#include "krino/core/process/process_spec.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace krino::core {

struct CommandOptions {
  ProcessSpec process;
  std::string command_text;  // the command as the user wrote it, for messages
};

// `command` (required: a list of arguments, or a shell command line), `cwd` (relative to
// `base_dir`, which is also the default), `env` and `inherit_env`. The program is looked up now.
CommandOptions read_command_options(const boost::json::object& options, const std::filesystem::path& base_dir,
                                    std::string_view prefix);

// `timeout_ms`, `kill_grace_ms` and `max_output_bytes` into `limits`, where present and not null.
void read_limit_options(const boost::json::object& options, ProcessLimits& limits, std::string_view prefix);

// A whole number in [minimum, maximum], or a configuration error naming `key` and `unit`.
std::int64_t whole_number_option(const boost::json::value& value, std::string_view key, std::int64_t minimum,
                                 std::int64_t maximum, std::string_view unit, std::string_view prefix);

// A non-empty string, or a configuration error naming `key`.
std::string text_option(const boost::json::value& value, std::string_view key, std::string_view prefix);

// A week: longer waits are mistakes, and deadlines must stay far from the clock's range.
inline constexpr std::int64_t kMaxOptionMilliseconds = 7LL * 24 * 3600 * 1000;

}  // namespace krino::core
