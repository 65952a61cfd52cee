#pragma once
// A request body sent with `Content-Encoding: gzip` (what OTLP exporters send when compression is
// on), inflated with Beast's zlib (no other library). The inflated size is bounded: a few kilobytes
// of gzip can inflate to gigabytes, so the bound is checked as the bytes come out, not after.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace krino::core::http_server {

struct InflateResult {
  std::optional<std::string> body;  // nullopt: see `error`
  std::string error;                // "not gzip", "inflates to more than N bytes", zlib's message
  bool too_large = false;           // the bound was passed (HTTP 413 rather than 400)
};

// One gzip member (RFC 1952: header with its optional fields, raw deflate, trailer); what follows
// the first member is ignored. The CRC-32 is not checked: deflate's own structure already refuses
// a damaged stream, and the body went over TCP.
InflateResult gunzip(std::string_view gzip, std::size_t max_bytes);

}  // namespace krino::core::http_server
