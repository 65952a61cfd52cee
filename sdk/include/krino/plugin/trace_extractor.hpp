// krino C++ helper: trace extractors. KRINO_TRACE_EXTRACTOR registers a class whose two static
// functions read a framework's raw output and write a canonical krino.trace/1 document.
//
//   struct Steps {
//     static int detect(const boost::json::value& raw);              // [thread-safe] 0..100, never throws
//     static krino::trace::Trace extract(const boost::json::value& raw);   // [thread-safe]
//   };
//   KRINO_TRACE_EXTRACTOR(Steps, "com.acme.steps", "acme_steps", "1.0.0", "ACME step logs",
//                         KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, nullptr);
//
// Threads: both functions may run on any thread at any time. Ownership: the kind has no instances;
// the raw document is parsed per call into default storage and dies with the call; the result is
// copied into the host's sink.
#ifndef KRINO_PLUGIN_TRACE_EXTRACTOR_HPP
#define KRINO_PLUGIN_TRACE_EXTRACTOR_HPP

#include <krino/plugin.h>
#include <krino/plugin/error.hpp>
#include <krino/plugin/registry.hpp>
#include <krino/plugin/sink.hpp>
#include <krino/utf8.hpp>

#include <krino/json_parse.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/parse_options.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace krino {
namespace detail {

// A raw trace as an extractor reads it: parsed with a nesting limit fit for recorded agent traces
// (Boost.JSON's default of 32 is too shallow for a conversation inside a span inside a batch).
inline boost::json::value parse_raw_trace(const char* data, size_t size, boost::system::error_code& ec) {
  boost::json::parse_options options;
  options.max_depth = 512;
  return krino::json::parse(std::string_view(data, size), ec, {}, options);
}

template <class T>
struct TraceExtractorTrampolines {
  static int32_t detect(const char* data, size_t size) noexcept {
    try {
      boost::system::error_code ec;
      const boost::json::value document = parse_raw_trace(data, size, ec);
      if (ec) return 0;
      const int confidence = T::detect(document);
      return confidence < 0 ? 0 : (confidence > 100 ? 100 : confidence);
    } catch (...) {
      return 0;  // a document that makes detection throw is not one this extractor can read
    }
  }
  static krino_status extract(const char* data, size_t size, krino_sink* trace, krino_sink* error) noexcept {
    return guarded(error, [&] {
      boost::system::error_code ec;
      const boost::json::value document = parse_raw_trace(data, size, ec);
      if (ec) {
        std::string start = utf8::excerpt(std::string_view(data, size), 40, "");
        for (char& c : start)
          if (c == '\n' || c == '\r' || c == '\t') c = ' ';
        throw invalid_argument("the trace is not valid JSON (" + ec.message() + "); it begins: " + start);
      }
      write_json(trace, T::extract(document).to_json());
      return KRINO_OK;
    });
  }
  static const krino_trace_extractor_vtable* vtable() {
    static const krino_trace_extractor_vtable table = {sizeof(krino_trace_extractor_vtable), &detect, &extract};
    return &table;
  }
};

}  // namespace detail
}  // namespace krino

// Registers class T as a trace extractor. The kind has no instances and no configuration: T
// needs two static, thread-safe functions over the parsed raw document,
//   static int detect(const boost::json::value& raw);    confidence 0..100 that raw is T's format
//   static R extract(const boost::json::value& raw);     R has boost::json::object to_json() const,
// usually krino::trace::Trace (<krino/trace/trace.hpp>). extract throws krino::Error for input it
// cannot read; detect should not throw (an exception counts as 0). Raw text that is not JSON gets
// 0 from detect and INVALID_ARGUMENT from extract without reaching T.
#define KRINO_TRACE_EXTRACTOR(T, id, name, version, description, capabilities, schema)                    \
  static const bool KRINO_DETAIL_CONCAT(krino_registered_, __COUNTER__) = ::krino::detail::register_component( \
      KRINO_KIND_TRACE_EXTRACTOR, id, name, version, description, capabilities, schema,                    \
      ::krino::detail::TraceExtractorTrampolines<T>::vtable())

#endif  // KRINO_PLUGIN_TRACE_EXTRACTOR_HPP
