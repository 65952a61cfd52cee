#pragma once
// The web UI's files as compiled into the binary (cmake/krino_embed_ui.cmake generates ui_assets()):
// ui/ and the released third-party files under third_party/ui/, each gzip-compressed at build time.
#include <cstddef>
#include <span>
#include <string_view>

namespace krino::core::server {

struct UiAsset {
  std::string_view name;          // the URL name under /ui/: "app.js", "vendor/uplot/uPlot.iife.min.js"
  std::string_view content_type;  // "text/javascript; charset=utf-8"
  std::string_view gzip;          // the file as `gzip -9n` wrote it
  std::string_view digest;        // hex SHA-256 (first 128 bits) of `gzip`: the ETag's body
  std::size_t size = 0;           // the file's own size, uncompressed
};

std::span<const UiAsset> ui_assets();

}  // namespace krino::core::server
