#include "krino/core/http_server/request_encoding.hpp"

#include <boost/beast/zlib/inflate_stream.hpp>

namespace krino::core::http_server {

namespace {

constexpr unsigned char kFlagHeaderCrc = 0x02;
constexpr unsigned char kFlagExtra = 0x04;
constexpr unsigned char kFlagName = 0x08;
constexpr unsigned char kFlagComment = 0x10;
constexpr std::size_t kChunk = 64 * 1024;

// Where the deflate data starts, or nullopt when the header is not gzip's.
std::optional<std::size_t> deflate_start(std::string_view gzip) {
  if (gzip.size() < 18 || static_cast<unsigned char>(gzip[0]) != 0x1f || static_cast<unsigned char>(gzip[1]) != 0x8b || gzip[2] != 8)
    return std::nullopt;
  const auto flags = static_cast<unsigned char>(gzip[3]);
  std::size_t at = 10;
  if (flags & kFlagExtra) {
    if (at + 2 > gzip.size()) return std::nullopt;
    at += 2 + (static_cast<unsigned char>(gzip[at]) | (static_cast<std::size_t>(static_cast<unsigned char>(gzip[at + 1])) << 8));
  }
  for (unsigned char zero_terminated : {kFlagName, kFlagComment}) {
    if (!(flags & zero_terminated)) continue;
    const std::size_t end = gzip.find('\0', at);
    if (end == std::string_view::npos) return std::nullopt;
    at = end + 1;
  }
  if (flags & kFlagHeaderCrc) at += 2;
  if (at >= gzip.size()) return std::nullopt;
  return at;
}

}  // namespace

InflateResult gunzip(std::string_view gzip, std::size_t max_bytes) {
  InflateResult result;
  const std::optional<std::size_t> start = deflate_start(gzip);
  if (!start) {
    result.error = "the body is not gzip";
    return result;
  }
  boost::beast::zlib::z_params stream;
  stream.next_in = gzip.data() + *start;
  stream.avail_in = gzip.size() - *start;
  boost::beast::zlib::inflate_stream inflater;
  std::string out;
  for (;;) {
    const std::size_t used = out.size();
    if (used > max_bytes) {
      result.error = "the body inflates to more than " + std::to_string(max_bytes) + " bytes";
      result.too_large = true;
      return result;
    }
    out.resize(used + kChunk);
    stream.next_out = out.data() + used;
    stream.avail_out = kChunk;
    boost::system::error_code ec;
    inflater.write(stream, boost::beast::zlib::Flush::sync, ec);
    out.resize(used + (kChunk - stream.avail_out));
    if (ec == boost::beast::zlib::error::end_of_stream) break;
    if (ec == boost::beast::zlib::error::need_buffers) {
      if (stream.avail_out == 0) continue;  // the output was full: more room, go on
      result.error = "the gzip body ends before its deflate stream does";
      return result;
    }
    if (ec) {
      result.error = "the gzip body does not inflate: " + ec.message();
      return result;
    }
    if (stream.avail_in == 0 && stream.avail_out != 0) {
      result.error = "the gzip body ends before its deflate stream does";
      return result;
    }
  }
  if (out.size() > max_bytes) {
    result.error = "the body inflates to more than " + std::to_string(max_bytes) + " bytes";
    result.too_large = true;
    return result;
  }
  result.body = std::move(out);
  return result;
}

}  // namespace krino::core::http_server
