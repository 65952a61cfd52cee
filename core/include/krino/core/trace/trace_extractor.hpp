#pragma once
// One trace extractor component as the host calls it: detect() and extract() through its vtable,
// with the plugin's status and message turned into an ExtractionFailure.
#include "krino/core/common/status.hpp"
#include "krino/core/plugin/component.hpp"

#include <krino/plugin.h>

#include <string>
#include <string_view>
#include <variant>

namespace krino::core {

// Why a trace could not be extracted: the extractor's status, or the choice's.
using ExtractionFailure = Status;

class TraceExtractor {
 public:
  // `component` must be a trace extractor and outlive this object.
  explicit TraceExtractor(const Component& component);

  const Component& component() const { return *component_; }
  const std::string& name() const { return component_->name; }

  // Confidence 0..100 that `raw` is this extractor's format (out-of-range answers are clamped).
  // [thread-safe]
  int detect(std::string_view raw) const noexcept;

  // The krino.trace/1 document the plugin wrote, or why it could not. [thread-safe]
  StatusOr<std::string> extract(std::string_view raw) const;

 private:
  const Component* component_;
};

}  // namespace krino::core
