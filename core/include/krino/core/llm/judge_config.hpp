#pragma once
// One judge as configured in the experiment file (`judges:`): a name, a provider and the LLM
// client's keys (llm_config.hpp).
#include "krino/core/common/environment_lookup.hpp"
#include "krino/core/llm/llm_config.hpp"

#include <boost/json/object.hpp>

#include <string>

namespace krino::core {

// Throws a configuration KrinoError naming the offending key ("judges.strict.temperature: ...").
// Unknown keys are errors. A missing key variable is named in the error; its value never is.
// `name` is the judge's name in the experiment file; a "name" member of `object` overrides it.
// `where` names the object in messages; empty means "judges.<name>".
LlmConfig parse_judge_config(const boost::json::object& object, std::string name,
                             const EnvironmentLookup& environment = process_environment(), std::string where = {});

}  // namespace krino::core
