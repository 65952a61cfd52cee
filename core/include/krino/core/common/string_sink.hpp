#pragma once
// A krino_sink that appends into a std::string. The host hands these to plugins.
#include <krino/plugin.h>
#include <krino/utf8.hpp>

#include <string>

namespace krino::core {

class StringSink {
 public:
  StringSink() noexcept {
    sink_.struct_size = sizeof(krino_sink);
    sink_.host_data = this;
    sink_.write = &StringSink::append;
  }
  StringSink(const StringSink&) = delete;
  StringSink& operator=(const StringSink&) = delete;

  krino_sink* sink() noexcept { return &sink_; }
  std::string& text() noexcept { return text_; }
  const std::string& text() const noexcept { return text_; }
  void clear() noexcept { text_.clear(); }
  // The text for a message or an event: a plugin may write any bytes (a reason cut inside a
  // character, a server's page in Latin-1), and an event line must be valid UTF-8, so ill-formed
  // parts become U+FFFD.
  std::string message() const { return utf8::repaired(text_); }

 private:
  static void append(krino_sink* sink, const char* data, size_t size) noexcept {
    // The ABI forbids exceptions across the boundary; an allocation failure here ends the process
    // through std::terminate rather than unwinding through plugin frames.
    auto* self = static_cast<StringSink*>(sink->host_data);
    if (data != nullptr && size > 0) self->text_.append(data, size);
  }

  krino_sink sink_{};
  std::string text_;
};

}  // namespace krino::core
