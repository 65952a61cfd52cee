#pragma once
// krino serve's web UI: the files of ui/ (compiled in, ui_assets.hpp) at /ui/<name>, and the UI's
// page, index.html, at / and at every other GET path no route knows outside /api/, so that a link
// to a view (/runs/<id>?status=FAILED) opens the page, which then routes in the browser.
//
// Each answer carries a strong ETag (304 on If-None-Match), `Content-Encoding: gzip` when the client
// accepts it (else the file decompressed), `Cache-Control: no-cache` (the names are not versioned,
// so a browser asks again, cheaply, after an upgrade), a Content-Security-Policy that allows only
// this server's own scripts, styles, images and connections (no inline script, no eval), and
// `X-Content-Type-Options: nosniff`. The files hold no data, so they need no key.
#include "krino/core/http_server/router.hpp"

#include <string_view>

namespace krino::core::server {

// The policy sent with every file of the UI.
inline constexpr std::string_view ui_content_security_policy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; font-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

// Adds GET /, GET /ui/{name...} and the router's fallback (index.html for unknown GET paths outside
// /api/; the usual JSON 404 for the rest).
void add_ui_routes(http_server::Router& router);

}  // namespace krino::core::server
