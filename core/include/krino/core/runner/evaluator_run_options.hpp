#pragma once
// The keys of an evaluator entry that are the host's, not the evaluator's: where it runs and
// within which bounds (docs/experiment-file.md, "Where an evaluator runs"). They are taken out of
// the entry before the rest is checked against the evaluator's schema and handed to it.
//   isolation: none | process   a plugin in this process, or in krino-plugin-host workers
//   timeout_ms                  per call; in process, the host stops waiting (the thread stays busy)
//   memory_mb                   per worker process (RLIMIT_AS)
//   workers                     worker processes at most (default: the run's parallelism)
//   command, cwd, env, inherit_env, kill_grace_ms, max_output_bytes   use: subprocess only
//   url, headers, timeout_ms, max_retries, retry_base_ms, retry_max_ms, ca_file, concurrency,
//   batch                       use: http_evaluator only (http_evaluator_options.hpp)
#include "krino/core/experiment/experiment_config.hpp"
#include "krino/core/process/process_options.hpp"

#include <boost/json/object.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace krino::core {

enum class EvaluatorIsolation { none, process };

// The component name of an evaluator given by a command: `use: subprocess`.
inline constexpr std::string_view kSubprocessEvaluator = "subprocess";
// The component name of an evaluator served over HTTP: `use: http_evaluator`.
inline constexpr std::string_view kHttpEvaluator = "http_evaluator";

struct EvaluatorRunOptions {
  EvaluatorIsolation isolation = EvaluatorIsolation::none;
  std::optional<CommandOptions> command;         // use: subprocess
  ProcessLimits limits;                          // per call (timeout_ms; kill grace, output bound)
  std::optional<std::chrono::milliseconds> timeout;  // timeout_ms, when given
  std::uint64_t memory_limit_bytes = 0;          // memory_mb
  std::optional<std::size_t> workers;
  boost::json::object http;                      // use: http_evaluator: its host keys, unread
  boost::json::object options;                   // the rest: the evaluator's own options
};

// Splits `use` into the host's keys and the evaluator's options. `default_isolation` is the
// experiment's `isolation`; `base_dir` resolves a subprocess's relative command and cwd. Throws a
// configuration error naming the key.
EvaluatorRunOptions read_evaluator_run_options(const ComponentUse& use, EvaluatorIsolation default_isolation,
                                               const std::filesystem::path& base_dir);

// "none" / "process", or a configuration error naming `where`.
EvaluatorIsolation parse_evaluator_isolation(const boost::json::value& value, const std::string& where);

}  // namespace krino::core
