#include "krino/core/llm/judge_setup.hpp"

#include "krino/core/llm/judge_config.hpp"
#include "krino/core/llm/reply_cache.hpp"
#include "krino/core/usage/price_table.hpp"

#include <cstdio>

namespace krino::core {

std::unique_ptr<JudgeService> make_judge_service(const JudgeSettings& settings, const JudgeSetupOptions& setup) {
  if (settings.judges.empty()) return nullptr;
  JudgeServiceOptions options;
  for (const auto& [name, value] : settings.judges)
    options.judges.push_back(parse_judge_config(value.as_object(), std::string(name), setup.environment));
  options.default_judge = settings.default_judge;
  if (options.default_judge.empty() && settings.judges.contains("default")) options.default_judge = "default";
  options.prices = PriceTable::from_json(settings.prices, "prices");
  if (!setup.no_cache) {
    if (settings.judge_cache.is_string()) options.cache_dir = std::filesystem::path(std::string(settings.judge_cache.get_string()));
    else if (settings.judge_cache.is_bool() && settings.judge_cache.get_bool()) options.cache_dir = ReplyCache::default_directory();
    // Asked for and impossible: said (on stderr, as the client says its cache problems), not silent.
    if (!options.cache_dir && !(settings.judge_cache.is_bool() && !settings.judge_cache.get_bool()))
      std::fprintf(stderr, "krino: warning: judge cache: no directory for it (neither XDG_CACHE_HOME nor HOME is an "
                           "absolute path); replies are not cached\n");
  }
  if (setup.io != nullptr) return std::make_unique<JudgeService>(*setup.io, std::move(options));
  return std::make_unique<JudgeService>(std::move(options));
}

}  // namespace krino::core
