// krino C++ helper: writing to a host sink (krino_sink), and a string sink for reading host replies.
//
// Threads: a sink the host passed in may be written only on the thread of the call that received it,
// and only during that call; write() copies synchronously, so the bytes may live on the caller's
// stack. Ownership: the host owns the sinks it passes; StringSink is the plugin's own (it owns its
// text) and is what the plugin hands to host functions such as judge().
#ifndef KRINO_PLUGIN_SINK_HPP
#define KRINO_PLUGIN_SINK_HPP

#include <krino/json_text.hpp>
#include <krino/plugin.h>

#include <boost/json/value.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace krino {

// Appends `bytes` to `sink`; a null sink, or one without a write function, drops them.
inline void write(krino_sink* sink, std::string_view bytes) {
  if (sink != nullptr && sink->write != nullptr) sink->write(sink, bytes.data(), bytes.size());
}

// Compact JSON with doubles in their shortest round-trip form ("1.0", not Boost's "1E0").
inline void write_json(krino_sink* sink, const boost::json::value& value) {
  write(sink, json::to_compact_json(value));
}

namespace detail {
// A sink that appends into a std::string (for host replies the plugin reads back). Not movable: the
// krino_sink points back at it.
struct StringSink {
  krino_sink sink{};
  std::string text;
  StringSink() {
    sink.struct_size = sizeof(krino_sink);
    sink.host_data = this;
    sink.write = [](krino_sink* s, const char* data, size_t size) {
      static_cast<StringSink*>(s->host_data)->text.append(data, size);
    };
  }
  StringSink(const StringSink&) = delete;
  StringSink& operator=(const StringSink&) = delete;
};
}  // namespace detail

}  // namespace krino

#endif  // KRINO_PLUGIN_SINK_HPP
