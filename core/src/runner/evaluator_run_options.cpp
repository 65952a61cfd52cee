#include "krino/core/runner/evaluator_run_options.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/runner/http_evaluator_options.hpp"

#include <array>

namespace krino::core {
namespace {

namespace json = boost::json;

constexpr std::array<std::string_view, 6> kSubprocessOnlyKeys = {"command", "cwd", "env", "inherit_env",
                                                                  "kill_grace_ms", "max_output_bytes"};

}  // namespace

EvaluatorIsolation parse_evaluator_isolation(const json::value& value, const std::string& where) {
  if (value.is_string() && value.get_string() == "none") return EvaluatorIsolation::none;
  if (value.is_string() && value.get_string() == "process") return EvaluatorIsolation::process;
  throw config_error(where + ": expected none or process");
}

EvaluatorRunOptions read_evaluator_run_options(const ComponentUse& use, EvaluatorIsolation default_isolation,
                                               const std::filesystem::path& base_dir) {
  const bool subprocess = use.component == kSubprocessEvaluator;
  const std::string prefix = "evaluator '" + use.component + "': ";
  EvaluatorRunOptions parsed;
  parsed.isolation = default_isolation;
  if (use.component == kHttpEvaluator) {
    // A server runs it: none of the keys about processes apply; the HTTP ones are read when the
    // evaluator is made.
    for (const auto& [key, value] : use.options) {
      if (is_http_evaluator_key(key)) parsed.http[key] = value;
      else if (key == "isolation" || key == "memory_mb" || key == "workers")
        throw config_error(prefix + "'" + std::string(key) + "' applies to evaluators in worker processes; a server runs this one");
      else parsed.options[key] = value;
    }
    parsed.isolation = EvaluatorIsolation::none;
    return parsed;
  }
  json::object host_keys;
  for (const auto& [key, value] : use.options) {
    const bool subprocess_key =
        std::find(kSubprocessOnlyKeys.begin(), kSubprocessOnlyKeys.end(), key) != kSubprocessOnlyKeys.end();
    if (key == "isolation" || key == "timeout_ms" || key == "memory_mb" || key == "workers" ||
        (subprocess && subprocess_key))
      host_keys[key] = value;
    else
      parsed.options[key] = value;
  }
  if (const json::value* isolation = host_keys.if_contains("isolation"); isolation != nullptr) {
    if (subprocess) throw config_error(prefix + "'isolation' applies to plugins; a subprocess evaluator always runs in its own processes");
    parsed.isolation = parse_evaluator_isolation(*isolation, prefix + "'isolation'");
  }
  if (subprocess) parsed.command = read_command_options(host_keys, base_dir, prefix);
  read_limit_options(host_keys, parsed.limits, prefix);
  if (const json::value* timeout = host_keys.if_contains("timeout_ms"); timeout != nullptr && !timeout->is_null())
    parsed.timeout = parsed.limits.timeout;
  const bool in_workers = subprocess || parsed.isolation == EvaluatorIsolation::process;
  if (const json::value* memory = host_keys.if_contains("memory_mb"); memory != nullptr && !memory->is_null()) {
    if (!in_workers) throw config_error(prefix + "'memory_mb' needs isolation: process (a limit on this process would bound krino itself)");
    parsed.memory_limit_bytes =
        static_cast<std::uint64_t>(whole_number_option(*memory, "memory_mb", 16, 1LL << 22, "megabytes", prefix)) << 20;
  }
  if (const json::value* workers = host_keys.if_contains("workers"); workers != nullptr && !workers->is_null()) {
    if (!in_workers) throw config_error(prefix + "'workers' needs isolation: process");
    parsed.workers = static_cast<std::size_t>(whole_number_option(*workers, "workers", 1, 100000, "processes", prefix));
  }
  return parsed;
}

}  // namespace krino::core
