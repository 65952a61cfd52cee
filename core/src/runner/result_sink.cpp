#include "krino/core/runner/result_sink.hpp"

#include <cstdlib>
#include <cstring>

namespace krino::core {
namespace {

// KRINO_RESULT_VALUES=0 makes every result cross as text, as before ABI 1.2: to compare the two
// ways (cli_host_document_test), or to rule the values out when chasing a difference.
bool offers_values() {
  static const bool offered = [] {
    const char* setting = std::getenv("KRINO_RESULT_VALUES");
    return setting == nullptr || std::strcmp(setting, "0") != 0;
  }();
  return offered;
}

}  // namespace

ResultSink::ResultSink(std::string_view name) noexcept : name_(name) {
  sink_.struct_size = sizeof(krino_sink);
  sink_.host_data = this;
  sink_.write = &ResultSink::append;
  sink_.write_eval_result = offers_values() ? &ResultSink::take_values : nullptr;
}

void ResultSink::append(krino_sink* sink, const char* data, size_t size) noexcept {
  // No exception may cross the boundary: an allocation failure ends the process here.
  auto* self = static_cast<ResultSink*>(sink->host_data);
  if (data == nullptr || size == 0) return;
  if (self->checked_) self->wrote_after_taken_ = true;
  self->text_.append(data, size);
}

krino_status ResultSink::take_values(krino_sink* sink, const krino_eval_result* values) noexcept {
  auto* self = static_cast<ResultSink*>(sink->host_data);
  // Once per call, and never after text: anything else is left to the text, whose check reports it.
  if (self->checked_) self->wrote_after_taken_ = true;
  if (values == nullptr || self->checked_ || !self->text_.empty()) {
    if (self->offer_ == ValuesOffer::unused) self->offer_ = ValuesOffer::refused;
    return KRINO_FAILED_PRECONDITION;
  }
  try {
    self->checked_ = check_eval_values(*values, self->name_);
  } catch (...) {  // out of memory: the plugin writes the text instead
    self->checked_.reset();
  }
  self->offer_ = self->checked_ ? ValuesOffer::taken : ValuesOffer::refused;
  return self->checked_ ? KRINO_OK : KRINO_INVALID_ARGUMENT;
}

WrittenResult ResultSink::take() {
  if (!text_.empty() || !checked_) return std::move(text_);
  return std::move(*checked_);
}

}  // namespace krino::core
