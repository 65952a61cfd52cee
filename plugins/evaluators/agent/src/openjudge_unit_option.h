// Reading an OpenJudge grader's own 0..1 option (a similarity threshold).
#ifndef KRINO_AGENT_OPENJUDGE_UNIT_OPTION_H
#define KRINO_AGENT_OPENJUDGE_UNIT_OPTION_H

#include <krino/plugin.hpp>

#include <string_view>

namespace krino::agent::openjudge {

// The number under `key`, else the schema's default; a value outside 0..1 is a configuration error.
double read_unit_option(const Config& config, std::string_view key);

}  // namespace krino::agent::openjudge

#endif  // KRINO_AGENT_OPENJUDGE_UNIT_OPTION_H
