#include "krino/core/net/url.hpp"

#include <boost/test/unit_test.hpp>

#include <stdexcept>

using namespace krino::core;

BOOST_AUTO_TEST_SUITE(url)

BOOST_AUTO_TEST_CASE(schemes_give_default_ports) {
  auto https = parse_url("https://api.openai.com/v1");
  BOOST_TEST(https.scheme == "https");
  BOOST_TEST(https.host == "api.openai.com");
  BOOST_TEST(https.port == 443);
  BOOST_TEST(https.target == "/v1");
  BOOST_TEST(https.is_tls());
  auto http = parse_url("HTTP://LocalHost");
  BOOST_TEST(http.scheme == "http");
  BOOST_TEST(http.host == "localhost");
  BOOST_TEST(http.port == 80);
  BOOST_TEST(http.target == "/");
  BOOST_TEST(!http.is_tls());
}

BOOST_AUTO_TEST_CASE(ports_queries_and_ipv6) {
  auto url = parse_url("http://127.0.0.1:8080/v1/models?x=1#frag");
  BOOST_TEST(url.port == 8080);
  BOOST_TEST(url.target == "/v1/models?x=1");
  BOOST_TEST(parse_url("http://h?q=1").target == "/?q=1");
  auto v6 = parse_url("https://[::1]:8443/v1");
  BOOST_TEST(v6.host == "::1");
  BOOST_TEST(v6.port == 8443);
  BOOST_TEST(v6.origin() == "https://[::1]:8443");
  BOOST_TEST(parse_url("https://h/v1").origin() == "https://h:443");
}

BOOST_AUTO_TEST_CASE(paths_are_appended_to_the_base) {
  BOOST_TEST(parse_url("https://h/v1").with_path("/chat/completions").target == "/v1/chat/completions");
  BOOST_TEST(parse_url("https://h/v1/").with_path("messages").target == "/v1/messages");
  BOOST_TEST(parse_url("http://h:1").with_path("/v1/messages").target == "/v1/messages");
}

BOOST_AUTO_TEST_CASE(bad_urls_are_refused_with_a_reason) {
  auto refused = [](const char* text, const char* why) {
    try {
      parse_url(text);
    } catch (const std::invalid_argument& error) {
      BOOST_TEST_CONTEXT(text) { BOOST_TEST(std::string(error.what()).find(why) != std::string::npos); }
      return;
    }
    BOOST_ERROR(std::string("accepted: ") + text);
  };
  refused("api.openai.com/v1", "expected http:// or https://");
  refused("ftp://h/", "only http and https");
  refused("https://user:secret@h/v1", "credentials in the URL");
  refused("https://:443/v1", "no host");
  refused("https://h:0/", "port");
  refused("https://h:70000/", "port");
  refused("https://h:12x/", "port");
  refused("https://h:/", "empty port");
  refused("https://[::1/", "unclosed");
  refused("https://h/a b", "percent-encoded");
}

BOOST_AUTO_TEST_SUITE_END()
