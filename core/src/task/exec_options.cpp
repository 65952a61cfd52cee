#include "krino/core/task/exec_options.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/process/process_options.hpp"

#include <set>

namespace krino::core {
namespace {

namespace json = boost::json;

const char* const kPrefix = "task exec: ";

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
  if (auto it = options.find("mode"); it != options.end() && !it->value().is_null()) {
    const std::string mode = text_option(it->value(), "mode", kPrefix);
    if (mode == "per_example") parsed.mode = Mode::per_example;
    else if (mode == "worker") parsed.mode = Mode::worker;
    else throw config_error(std::string(kPrefix) + "'mode' must be per_example or worker, got '" + mode + "'");
  }
  read_limit_options(options, parsed.limits, kPrefix);

  parsed.workers = std::max<std::uint32_t>(1, parallelism);
  if (auto it = options.find("workers"); it != options.end() && !it->value().is_null()) {
    if (parsed.mode != Mode::worker)
      throw config_error(std::string(kPrefix) + "'workers' applies only to mode: worker");
    parsed.workers =
        static_cast<std::uint32_t>(whole_number_option(it->value(), "workers", 1, 100000, "processes", kPrefix));
  }
  if (auto it = options.find("model"); it != options.end() && !it->value().is_null())
    parsed.model = text_option(it->value(), "model", kPrefix);

  CommandOptions command = read_command_options(options, base_dir, kPrefix);
  parsed.process = std::move(command.process);
  parsed.command_text = std::move(command.command_text);
  // Set per call (docs/tasks/exec.md); an inherited value would shadow them.
  std::erase_if(parsed.process.environment, [](const std::string& e) {
    return e.rfind("KRINO_RUN_INDEX=", 0) == 0 || e.rfind("KRINO_ITEM_INDEX=", 0) == 0 || e.rfind("KRINO_SEED=", 0) == 0;
  });
  return parsed;
}

}  // namespace krino::core
