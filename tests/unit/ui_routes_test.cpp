// krino serve's web UI routes (server/ui_routes): the page and its files, ETag and 304, gzip or the
// plain file, the security headers, the page for unknown GET paths (the UI's views) and API paths
// left to the API.
#include "krino/core/server/ui_assets.hpp"
#include "krino/core/server/ui_routes.hpp"

#include "test_paths.hpp"

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <sstream>

namespace http = boost::beast::http;
using krino::core::http_server::BeastRequest;
using krino::core::http_server::Request;
using krino::core::http_server::Response;
using krino::core::http_server::Router;

namespace {

struct UiRouter {
  Router router;
  UiRouter() {
    router.add(http::verb::get, "/api/v1/projects", [](const Request&) {
      return krino::core::http_server::json_response(http::status::ok, "[]");
    });
    krino::core::server::add_ui_routes(router);
  }
  Response get(const std::string& target, std::initializer_list<std::pair<std::string, std::string>> headers = {{"Accept-Encoding", "gzip, deflate, br"}},
               http::verb method = http::verb::get) const {
    BeastRequest message{method, target, 11};
    for (const auto& [name, value] : headers) message.set(name, value);
    Request request{message, target.substr(0, target.find('?')), {}, {}};
    return router.dispatch(request);
  }
};

std::string source_file(const std::string& relative) {
  std::ifstream in(std::string(KRINO_SOURCE_DIR) + "/" + relative, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ui_routes)

BOOST_AUTO_TEST_CASE(the_page_is_served_gzipped_with_a_strong_etag_and_a_strict_policy) {
  const UiRouter ui;
  const Response page = ui.get("/");
  BOOST_TEST(page.result_int() == 200);
  BOOST_TEST(page[http::field::content_encoding] == "gzip");
  BOOST_TEST(page[http::field::content_type] == "text/html; charset=utf-8");
  BOOST_TEST(page[http::field::vary] == "Accept-Encoding");
  BOOST_TEST(page[http::field::cache_control] == "no-cache");
  BOOST_TEST(page["X-Content-Type-Options"] == "nosniff");
  const std::string policy(page["Content-Security-Policy"]);
  BOOST_TEST(policy.find("default-src 'self'") != std::string::npos);
  BOOST_TEST(policy.find("script-src 'self';") != std::string::npos);
  BOOST_TEST(policy.find("style-src 'self';") != std::string::npos);
  BOOST_TEST(policy.find("unsafe") == std::string::npos);
  const std::string etag(page[http::field::etag]);
  BOOST_TEST(etag.size() > 10);
  BOOST_TEST(etag.front() == '"');  // strong: no W/
  // gzip's magic bytes
  BOOST_REQUIRE(page.body().size() > 2);
  BOOST_TEST(static_cast<unsigned char>(page.body()[0]) == 0x1f);
  BOOST_TEST(static_cast<unsigned char>(page.body()[1]) == 0x8b);
}

BOOST_AUTO_TEST_CASE(a_matching_if_none_match_gets_304_without_a_body) {
  const UiRouter ui;
  const std::string etag(ui.get("/ui/app.js")[http::field::etag]);
  const Response again = ui.get("/ui/app.js", {{"Accept-Encoding", "gzip"}, {"If-None-Match", "\"other\", " + etag}});
  BOOST_TEST(again.result_int() == 304);
  BOOST_TEST(again.body().empty());
  BOOST_TEST(again[http::field::etag] == etag);
  BOOST_TEST(ui.get("/ui/app.js", {{"Accept-Encoding", "gzip"}, {"If-None-Match", "W/" + etag}}).result_int() == 304);
  BOOST_TEST(ui.get("/ui/app.js", {{"Accept-Encoding", "gzip"}, {"If-None-Match", "\"stale\""}}).result_int() == 200);
  // The plain file is another representation: the gzip tag does not validate it.
  BOOST_TEST(ui.get("/ui/app.js", {{"If-None-Match", etag}}).result_int() == 200);
}

BOOST_AUTO_TEST_CASE(a_client_without_gzip_gets_the_file_as_written) {
  const UiRouter ui;
  for (const auto& headers : {std::initializer_list<std::pair<std::string, std::string>>{},
                              {{"Accept-Encoding", "gzip;q=0, identity"}}, {{"Accept-Encoding", "br"}}}) {
    const Response page = ui.get("/ui/app.css", headers);
    BOOST_TEST(page.result_int() == 200);
    BOOST_TEST(page.count(http::field::content_encoding) == 0u);
    BOOST_TEST(page.body() == source_file("ui/app.css"));
  }
  const Response vendor = ui.get("/ui/vendor/uplot/uPlot.iife.min.js", {});
  BOOST_TEST(vendor.body() == source_file("third_party/ui/uplot/uPlot.iife.min.js"));
  BOOST_TEST(vendor[http::field::content_type] == "text/javascript; charset=utf-8");
  BOOST_TEST(ui.get("/ui/app.css", {{"Accept-Encoding", "deflate, gzip;q=0.5"}})[http::field::content_encoding] == "gzip");
}

BOOST_AUTO_TEST_CASE(every_embedded_file_is_its_source_compressed) {
  const UiRouter ui;
  BOOST_TEST(krino::core::server::ui_assets().size() >= 6u);
  for (const auto& asset : krino::core::server::ui_assets()) {
    const Response plain = ui.get("/ui/" + std::string(asset.name), {});
    BOOST_TEST(plain.result_int() == 200, asset.name);
    BOOST_TEST(plain.body().size() == asset.size, asset.name);
  }
}

BOOST_AUTO_TEST_CASE(unknown_get_paths_are_views_of_the_page_and_api_paths_stay_the_apis) {
  const UiRouter ui;
  const std::string page_tag(ui.get("/")[http::field::etag]);
  for (const std::string view : {"/runs/0190-abc?status=FAILED", "/projects/chat", "/experiments/x/diff?baseline=y", "/keys"}) {
    const Response response = ui.get(view);
    BOOST_TEST(response.result_int() == 200, view);
    BOOST_TEST(response[http::field::etag] == page_tag, view);
  }
  const Response api = ui.get("/api/v1/projects");
  BOOST_TEST(api.result_int() == 200);
  BOOST_TEST(api.body() == "[]");
  for (const std::string path : {"/api/v1/nothing", "/api", "/ui/missing.js", "/ui/"}) {
    const Response missing = ui.get(path);
    BOOST_TEST(missing.result_int() == 404, path);
    BOOST_TEST(missing[http::field::content_type] == "application/json", path);
    BOOST_TEST(missing.body().find("\"not_found\"") != std::string::npos, path);
  }
  BOOST_TEST(ui.get("/api/v1/projects", {}, http::verb::post).result_int() == 405);
  BOOST_TEST(ui.get("/runs/x", {}, http::verb::post).result_int() == 404);
}

BOOST_AUTO_TEST_SUITE_END()
