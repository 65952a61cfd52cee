#include "krino/core/trace/extractor_choice.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/plugin/plugin_registry.hpp"

#include <algorithm>

namespace krino::core {
namespace {

// "a, b, c": names in alphabetical order, so messages do not depend on plugin load order.
std::string sorted_list(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace

ExtractorChoice::ExtractorChoice(const PluginRegistry& registry, std::string_view requested) {
  if (requested != "auto") {
    const Component* component = registry.try_find(ComponentKind::trace_extractor, requested);
    if (component == nullptr) {
      std::vector<std::string> names;
      for (const Component* c : registry.components(ComponentKind::trace_extractor)) names.push_back(c->name);
      const std::string known = sorted_list(std::move(names));
      throw config_error("no trace extractor named '" + std::string(requested) + "' (" +
                         (known.empty() ? std::string("none is loaded; is a trace extractor plugin installed?")
                                        : "known: " + known + ", or auto") +
                         ")");
    }
    extractors_.emplace_back(*component);
    label_ = component->name;
    return;
  }
  automatic_ = true;
  label_ = "auto";
  for (const Component* c : registry.components(ComponentKind::trace_extractor)) extractors_.emplace_back(*c);
  if (extractors_.empty())
    throw config_error("extractor: auto needs trace extractor plugins, and none is loaded (see `krino plugins list`)");
}

std::vector<DetectionScore> ExtractorChoice::scores(std::string_view raw) const {
  std::vector<DetectionScore> out;
  out.reserve(extractors_.size());
  for (const TraceExtractor& extractor : extractors_) out.push_back({&extractor, extractor.detect(raw)});
  std::stable_sort(out.begin(), out.end(),
                   [](const DetectionScore& a, const DetectionScore& b) { return a.confidence > b.confidence; });
  return out;
}

StatusOr<const TraceExtractor*> ExtractorChoice::choose(std::string_view raw) const {
  if (!automatic_) return &extractors_.front();
  const std::vector<DetectionScore> ranked = scores(raw);
  if (ranked.front().confidence == 0) {
    std::vector<std::string> names;
    for (const DetectionScore& s : ranked) names.push_back(s.extractor->name());
    const std::string tried = sorted_list(std::move(names));
    return ExtractionFailure{KRINO_INVALID_ARGUMENT, "no trace extractor recognises this output (tried " + tried +
                                                         "); name one with extractor: NAME"};
  }
  if (ranked.size() > 1 && ranked[1].confidence == ranked[0].confidence) {
    std::vector<std::string> names;
    for (const DetectionScore& s : ranked)
      if (s.confidence == ranked[0].confidence) names.push_back(s.extractor->name());
    const std::string tied = sorted_list(std::move(names));
    return ExtractionFailure{KRINO_INVALID_ARGUMENT, "the output is ambiguous: " + tied + " all claim it with confidence " +
                                                         std::to_string(ranked[0].confidence) +
                                                         "; name one with extractor: NAME"};
  }
  return ranked.front().extractor;
}

}  // namespace krino::core
