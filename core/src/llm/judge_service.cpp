#include "krino/core/llm/judge_service.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/io_service.hpp"

namespace krino::core {
namespace {

// The judges as the client's models; throws the configuration errors a user can cause.
LlmClientOptions judge_client_options(JudgeServiceOptions options) {
  if (options.judges.empty()) throw config_error("judges: at least one judge is needed");
  for (size_t i = 0; i < options.judges.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (options.judges[j].name == options.judges[i].name)
        throw config_error("judges: the name '" + options.judges[i].name + "' is used twice");
  if (options.default_judge.empty()) options.default_judge = options.judges.front().name;
  bool known = false;
  for (const auto& judge : options.judges) known = known || judge.name == options.default_judge;
  if (!known) throw config_error("default judge '" + options.default_judge + "' is not among the configured judges");
  LlmClientOptions client;
  client.models = std::move(options.judges);
  client.default_model = std::move(options.default_judge);
  client.cache_dir = std::move(options.cache_dir);
  client.prices = std::move(options.prices);
  client.retry = options.retry;
  client.extra_ca_pem = std::move(options.extra_ca_pem);
  client.warn = std::move(options.warn);
  return client;
}

}  // namespace

JudgeService::JudgeService(IoService& io, JudgeServiceOptions options)
    : client_(std::make_unique<LlmClient>(io, judge_client_options(std::move(options)))) {}

JudgeService::JudgeService(JudgeServiceOptions options) {
  LlmClientOptions client = judge_client_options(options);  // before any thread starts
  own_io_ = std::make_unique<IoService>(options.io_threads);
  client_ = std::make_unique<LlmClient>(*own_io_, std::move(client));
}

JudgeService::~JudgeService() = default;

}  // namespace krino::core
