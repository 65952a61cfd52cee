#include "krino/core/judge/judge_setup.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/judge/judge_cache.hpp"
#include "krino/core/judge/price_table.hpp"

namespace krino::core {

std::unique_ptr<JudgeService> make_judge_service(const ExperimentConfig& config, const JudgeSetupOptions& setup) {
  if (config.judges.empty()) return nullptr;
  JudgeServiceOptions options;
  for (const auto& [name, value] : config.judges)
    options.judges.push_back(parse_judge_config(value.as_object(), std::string(name), setup.environment));
  options.default_judge = config.default_judge;
  if (options.default_judge.empty() && config.judges.contains("default")) options.default_judge = "default";
  options.prices = PriceTable::from_json(config.prices, "prices");
  if (!setup.no_cache) {
    if (config.judge_cache.is_string()) options.cache_dir = std::filesystem::path(std::string(config.judge_cache.get_string()));
    else if (config.judge_cache.is_bool() && config.judge_cache.get_bool()) options.cache_dir = JudgeCache::default_directory();
  }
  return std::make_unique<JudgeService>(std::move(options));
}

}  // namespace krino::core
