#pragma once
// From the judge sections of an experiment (or of a `krino eval --judges` file) to a running judge
// service; none when they configure no judge (judge calls then answer UNAVAILABLE).
#include "krino/core/common/environment_lookup.hpp"
#include "krino/core/llm/judge_service.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <memory>
#include <string>

namespace krino::core {

class IoService;

// The judge sections as written: `judges`, `default_judge`, `judge_cache` and `prices`
// (docs/judges.md).
struct JudgeSettings {
  boost::json::object judges;           // name -> judge options, in file order
  std::string default_judge;            // empty: the judge named "default", else the first
  boost::json::value judge_cache = true;  // true, false, or a directory
  boost::json::object prices;           // model -> {input_per_million, output_per_million}
};

struct JudgeSetupOptions {
  bool no_cache = false;  // --no-cache: neither read nor write the judge cache
  EnvironmentLookup environment = process_environment();
  // The run's shared I/O service, which must outlive the judge service; null: the judge service
  // runs one of its own (for a command with no other I/O).
  IoService* io = nullptr;
};

// Throws a configuration error naming the key (and, for a missing API key, the variable).
std::unique_ptr<JudgeService> make_judge_service(const JudgeSettings& settings, const JudgeSetupOptions& options = {});

}  // namespace krino::core
