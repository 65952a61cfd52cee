#pragma once
// Which trace extractor reads a raw output: the one an experiment names (`extractor: openai_chat`),
// or, with `extractor: auto`, the one whose detect() is most confident for this very document.
// Automatic choice happens per item, so one dataset may mix formats. A tie at the top, or no
// extractor with any confidence, is an extraction failure that names the candidates: guessing
// between two formats could score the wrong tool calls.
#include "krino/core/trace/trace_extractor.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace krino::core {

class PluginRegistry;

struct DetectionScore {
  const TraceExtractor* extractor = nullptr;
  int confidence = 0;
};

class ExtractorChoice {
 public:
  // `requested`: an extractor's short name or id, or "auto". Throws a configuration error for an
  // unknown name (listing the extractors found) and, for "auto", when no extractor is loaded.
  ExtractorChoice(const PluginRegistry& registry, std::string_view requested);

  bool automatic() const { return automatic_; }
  // "openai_chat", or "auto": the component named in item errors before an extractor is chosen.
  const std::string& label() const { return label_; }

  // The extractor for `raw`. [thread-safe]
  StatusOr<const TraceExtractor*> choose(std::string_view raw) const;

  // Every candidate's confidence for `raw`, highest first (ties in load order). [thread-safe]
  std::vector<DetectionScore> scores(std::string_view raw) const;

 private:
  std::vector<TraceExtractor> extractors_;  // the named one, or every loaded extractor
  bool automatic_ = false;
  std::string label_;
};

}  // namespace krino::core
