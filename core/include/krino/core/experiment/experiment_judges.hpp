#pragma once
// The judges an experiment configures, handed to the LLM client's judge setup.
#include "krino/core/experiment/experiment_config.hpp"
#include "krino/core/llm/judge_setup.hpp"

#include <memory>

namespace krino::core {

// The experiment's `judges`, `default_judge`, `judge_cache` and `prices`.
JudgeSettings judge_settings(const ExperimentConfig& config);

// make_judge_service(judge_settings(config), options).
std::unique_ptr<JudgeService> make_judge_service(const ExperimentConfig& config, const JudgeSetupOptions& options = {});

}  // namespace krino::core
