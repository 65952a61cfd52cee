#include "krino/core/experiment/experiment_judges.hpp"

namespace krino::core {

JudgeSettings judge_settings(const ExperimentConfig& config) {
  return JudgeSettings{config.judges, config.default_judge, config.judge_cache, config.prices};
}

std::unique_ptr<JudgeService> make_judge_service(const ExperimentConfig& config, const JudgeSetupOptions& options) {
  return make_judge_service(judge_settings(config), options);
}

}  // namespace krino::core
