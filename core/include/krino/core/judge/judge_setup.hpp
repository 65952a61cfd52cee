#pragma once
// From an experiment's `judges`, `default_judge`, `judge_cache` and `prices` to a running judge
// service; none when the experiment configures no judge (judge calls then answer UNAVAILABLE).
#include "krino/core/experiment/experiment_config.hpp"
#include "krino/core/judge/judge_config.hpp"
#include "krino/core/judge/judge_service.hpp"

#include <memory>

namespace krino::core {

struct JudgeSetupOptions {
  bool no_cache = false;  // --no-cache: neither read nor write the judge cache
  EnvironmentLookup environment = process_environment();
};

// Throws a configuration error naming the key (and, for a missing API key, the variable).
std::unique_ptr<JudgeService> make_judge_service(const ExperimentConfig& config, const JudgeSetupOptions& options = {});

}  // namespace krino::core
