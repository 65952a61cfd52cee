#include "krino/core/server/ui_routes.hpp"

#include "krino/core/server/ui_assets.hpp"

#include <boost/beast/zlib/inflate_stream.hpp>

#include <map>
#include <mutex>
#include <string>

namespace krino::core::server {

namespace {

namespace http = boost::beast::http;
using http_server::Request;
using http_server::Response;
using http_server::Status;

const UiAsset* find_ui_asset(std::string_view name) {
  for (const UiAsset& asset : ui_assets())
    if (asset.name == name) return &asset;
  return nullptr;
}

// The file as it was before gzip, for a client that does not accept gzip (rare: curl without
// --compressed, some proxies). Inflated once per file and kept.
const std::string& identity_bytes(const UiAsset& asset) {
  static std::mutex mutex;
  static std::map<std::string_view, std::string> inflated;
  const std::lock_guard lock(mutex);
  auto found = inflated.find(asset.name);
  if (found != inflated.end()) return found->second;
  // gzip -n writes a 10-byte header (no name, no time) and an 8-byte trailer around raw deflate.
  std::string out(asset.size, '\0');
  boost::beast::zlib::z_params stream;
  stream.next_in = asset.gzip.data() + 10;
  stream.avail_in = asset.gzip.size() - 18;
  stream.next_out = out.data();
  stream.avail_out = out.size();
  boost::beast::zlib::inflate_stream inflater;
  boost::system::error_code ec;
  inflater.write(stream, boost::beast::zlib::Flush::finish, ec);
  if (ec && ec != boost::beast::zlib::error::end_of_stream)
    throw std::runtime_error("the embedded UI file " + std::string(asset.name) + " does not inflate: " + ec.message());
  out.resize(stream.total_out);
  return inflated.emplace(asset.name, std::move(out)).first->second;
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// Accept-Encoding lists codings with optional weights: "gzip, deflate, br" or "gzip;q=0". gzip is
// accepted when listed (or `*` is) without q=0.
bool accepts_gzip(const Request& request) {
  const auto header = request.header("Accept-Encoding");
  if (!header) return false;
  std::string_view rest = *header;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    std::string_view entry = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const std::size_t semicolon = entry.find(';');
    const std::string_view coding = trimmed(entry.substr(0, semicolon));
    if (coding != "gzip" && coding != "*" && coding != "x-gzip") continue;
    if (semicolon == std::string_view::npos) return true;
    std::string_view weight = trimmed(entry.substr(semicolon + 1));
    if (weight.substr(0, 2) != "q=" && weight.substr(0, 2) != "Q=") return true;
    weight.remove_prefix(2);
    return weight.find_first_not_of("0.") != std::string_view::npos;  // q=0, q=0.0, q=0.000 refuse
  }
  return false;
}

// If-None-Match is `*` or a list of entity tags, compared weakly (RFC 9110 13.1.2).
bool matches_etag(const Request& request, std::string_view etag) {
  const auto header = request.header("If-None-Match");
  if (!header) return false;
  std::string_view rest = *header;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    std::string_view tag = trimmed(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (tag == "*") return true;
    if (tag.substr(0, 2) == "W/") tag.remove_prefix(2);
    if (tag == etag) return true;
  }
  return false;
}

Response serve_asset(const Request& request, const UiAsset& asset) {
  const bool gzip = accepts_gzip(request);
  // Each representation has its own strong tag: the gzip bytes and the plain ones differ.
  std::string etag = "\"";
  etag.append(asset.digest).append(gzip ? "-gz\"" : "\"");
  Response response(matches_etag(request, etag) ? Status::not_modified : Status::ok, 11);
  response.set(http::field::etag, etag);
  response.set(http::field::cache_control, "no-cache");
  response.set(http::field::vary, "Accept-Encoding");
  response.set("Content-Security-Policy", ui_content_security_policy);
  response.set("X-Content-Type-Options", "nosniff");
  response.set("Referrer-Policy", "no-referrer");
  if (response.result() == Status::not_modified) return response;
  response.set(http::field::content_type, asset.content_type);
  if (gzip) {
    response.set(http::field::content_encoding, "gzip");
    response.body().assign(asset.gzip);
  } else {
    response.body() = identity_bytes(asset);
  }
  return response;
}

Response serve_page(const Request& request) {
  const UiAsset* page = find_ui_asset("index.html");
  if (page == nullptr) return http_server::error_response(Status::not_found, "not_found", "this krino was built without its web UI");
  return serve_asset(request, *page);
}

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

}  // namespace

void add_ui_routes(http_server::Router& router) {
  router.add(http::verb::get, "/", serve_page);
  router.set_fallback([](const Request& request) {
    const bool get = request.message.method() == http::verb::get;
    if (get && starts_with(request.path, "/ui/")) {
      const UiAsset* asset = find_ui_asset(std::string_view(request.path).substr(4));
      if (asset != nullptr) return serve_asset(request, *asset);
    } else if (get && !starts_with(request.path, "/api/") && request.path != "/api") {
      return serve_page(request);  // a view of the UI: the page routes it in the browser
    }
    return http_server::error_response(Status::not_found, "not_found", "no such path: " + request.path);
  });
}

}  // namespace krino::core::server
