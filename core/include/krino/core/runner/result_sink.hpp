#pragma once
// The result sink of an evaluate call: takes the eval result as values when the plugin hands them
// over (krino_sink::write_eval_result, ABI 1.2), checked as they arrive, and as text otherwise.
#include "krino/core/runner/evaluator_backend.hpp"

#include <krino/plugin.h>

#include <optional>
#include <string>
#include <string_view>

namespace krino::core {

class ResultSink {
 public:
  // `name` is the configured name the result takes; it must outlive the sink.
  explicit ResultSink(std::string_view name) noexcept;
  ResultSink(const ResultSink&) = delete;
  ResultSink& operator=(const ResultSink&) = delete;

  krino_sink* sink() noexcept { return &sink_; }
  // What the plugin handed over: the text it wrote when it wrote any (values taken before it are
  // dropped: the text is then what a reader sees, and its check says what is wrong), else the
  // checked values, else the empty text (which the check refuses).
  WrittenResult take();

  // What the plugin did with the offer to take its result as values: not used, taken (a
  // write_eval_result answered KRINO_OK), or refused (none did). For `krino plugins check`, which
  // holds a plugin to the contract: after KRINO_OK it writes nothing more, after a refusal the text.
  enum class ValuesOffer { unused, taken, refused };
  ValuesOffer values_offer() const noexcept { return offer_; }
  bool wrote_after_taken() const noexcept { return wrote_after_taken_; }
  bool wrote_text() const noexcept { return !text_.empty(); }

 private:
  static void append(krino_sink* sink, const char* data, size_t size) noexcept;
  static krino_status take_values(krino_sink* sink, const krino_eval_result* values) noexcept;

  krino_sink sink_{};
  std::string_view name_;
  std::string text_;
  std::optional<CheckedResult> checked_;
  ValuesOffer offer_ = ValuesOffer::unused;
  bool wrote_after_taken_ = false;
};

}  // namespace krino::core
