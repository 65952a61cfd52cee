// One fuzz input as a raw trace, through a trace extractor the way the plugin ABI calls it: parsed
// as the SDK parses raw traces, then detect() and extract(), and the trace written out as JSON.
// An unreadable trace is a krino::Error (any other exception becomes an INTERNAL item error at
// the ABI boundary): expected. What a harness finds is a crash, a sanitizer report, a hang or a
// runaway allocation.
#ifndef KRINO_FUZZ_TRACE_EXTRACTOR_FUZZ_HPP
#define KRINO_FUZZ_TRACE_EXTRACTOR_FUZZ_HPP

#include <krino/plugin.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>

namespace krino::fuzz {

template <class Extractor>
void extract_trace(const uint8_t* data, std::size_t size) {
  boost::system::error_code ec;
  const boost::json::value raw = detail::parse_raw_trace(reinterpret_cast<const char*>(data), size, ec);
  if (ec) return;
  try {
    (void)Extractor::detect(raw);
  } catch (const std::exception&) {
  }
  try {
    (void)boost::json::serialize(Extractor::extract(raw).to_json());
  } catch (const Error&) {
  } catch (const std::exception&) {
  }
}

}  // namespace krino::fuzz

#endif  // KRINO_FUZZ_TRACE_EXTRACTOR_FUZZ_HPP
