// Options shared by every evaluator of the agent plugin, and the checks run on a configuration
// before an evaluator reads it.
#ifndef KRINO_AGENT_EVALUATOR_OPTIONS_H
#define KRINO_AGENT_EVALUATOR_OPTIONS_H

#include <krino/plugin.hpp>

#include <initializer_list>
#include <string>
#include <string_view>

namespace krino::agent {

struct CommonOptions {
  std::string name;  // the result's name, and the key results are aggregated under
  double threshold;  // success = score >= threshold
};

// Reads `name` and `threshold`; a threshold outside 0..1 is a configuration error.
CommonOptions read_common_options(const Config& config, std::string_view default_name, double default_threshold);

// Rejects options that `config_schema` does not declare and declared-required options that are
// absent. The host validates configurations against the schema too; this repeats the two checks
// whose absence would otherwise pass silently when the evaluator is created some other way (a
// misspelt option would simply be ignored).
// Returns `config`, so constructors can check before their member initializers read anything.
const Config& check_option_names(const Config& config, std::string_view config_schema);

// Reads a key option (output_key, retrieved_key, ...): a non-empty string.
std::string read_key_option(const Config& config, std::string_view option, std::string_view fallback);
inline std::string read_output_key(const Config& config) { return read_key_option(config, "output_key", "output"); }

// Reads an option that must be one of `allowed` (lower snake_case words).
std::string read_choice(const Config& config, std::string_view key, std::string_view fallback,
                        std::initializer_list<std::string_view> allowed);

}  // namespace krino::agent

#endif  // KRINO_AGENT_EVALUATOR_OPTIONS_H
