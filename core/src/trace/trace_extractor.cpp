#include "krino/core/trace/trace_extractor.hpp"

#include "krino/core/common/string_sink.hpp"

#include <stdexcept>

namespace krino::core {

TraceExtractor::TraceExtractor(const Component& component) : component_(&component) {
  if (component.kind != ComponentKind::trace_extractor)
    throw std::invalid_argument("component '" + component.id + "' is not a trace extractor");
}

int TraceExtractor::detect(std::string_view raw) const noexcept {
  const int32_t confidence = component_->extractor().detect(raw.data(), raw.size());
  return confidence < 0 ? 0 : (confidence > 100 ? 100 : confidence);
}

StatusOr<std::string> TraceExtractor::extract(std::string_view raw) const {
  StringSink trace;
  StringSink error;
  const krino_status status = component_->extractor().extract(raw.data(), raw.size(), trace.sink(), error.sink());
  if (status != KRINO_OK) {
    std::string message = error.message();
    if (message.empty()) message = "the extractor failed without saying why";
    return ExtractionFailure{status, std::move(message)};
  }
  return std::move(trace.text());
}

}  // namespace krino::core
