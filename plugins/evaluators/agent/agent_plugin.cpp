// The krino.agent plugin: evaluators of what an agent did (its tool calls and their order). This
// file holds the plugin declaration and the tool evaluators' registrations; other groups of
// evaluators register in their own *_registration.cpp files, and all logic lives in
// krino_agent_logic.
#include <krino/plugin.hpp>

KRINO_PLUGIN("krino.agent", "agent", "1.0.0", "krino", "Apache-2.0",
             "Agent evaluators: tool-call correctness and trajectory matching");
