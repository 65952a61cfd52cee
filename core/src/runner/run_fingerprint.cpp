#include "krino/core/runner/run_fingerprint.hpp"

#include "krino/core/common/content_digest.hpp"
#include "krino/core/runner/output_paths.hpp"

#include <boost/json.hpp>

#include <sys/stat.h>

namespace krino::core {
namespace json = boost::json;

namespace {

json::array component_uses(const std::vector<ComponentUse>& uses) {
  json::array out;
  for (const auto& use : uses) out.push_back(json::object{{"use", use.component}, {"options", use.options}});
  return out;
}

}  // namespace

krino::event::RunFingerprint run_fingerprint(const ExperimentConfig& config) {
  json::object settings{
      {"dataset", json::object{{"uri", config.dataset.uri}, {"resolver", config.dataset.resolver},
                               {"options", config.dataset.options}}},
      {"task", json::object{{"kind", config.task.kind}, {"options", config.task.options}}},
      {"evaluators", component_uses(config.evaluators)},
      {"runs", config.runs},
      {"seed", config.seed},
      {"judges", config.judges},
      {"defaultJudge", config.default_judge},
      {"prices", config.prices},
  };
  krino::event::RunFingerprint fingerprint;
  fingerprint.experiment = "sha256:" + sha256_hex(json::serialize(canonical_json(settings)));
  const std::string path = local_dataset_path(config.dataset.uri);
  struct stat info {};
  if (!path.empty() && ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode))
    fingerprint.dataset_bytes = static_cast<uint64_t>(info.st_size);
  return fingerprint;
}

}  // namespace krino::core
