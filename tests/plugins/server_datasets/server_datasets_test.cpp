// The dataset:// resolver without sockets: a scripted transport plays the server. Paging (and
// `latest` fixed by the first page), the examples it yields (dataset item id kept), the cache
// written atomically, a pinned version falling back to it when the server is unreachable, and what
// never falls back: `latest`, a 4xx, an answer that is not a page, a missing server URL.
#include "dataset_cache.hpp"
#include "dataset_uri.hpp"
#include "server_dataset_resolver.hpp"

#include "scratch_directory.hpp"

#include <boost/test/unit_test.hpp>

#include <deque>
#include <fstream>

using namespace krino::server_datasets;
using krino::server::HttpReply;

namespace {

class DatasetServerScript final : public krino::server::Transport {
 public:
  void answer(int status, std::string body) {
    HttpReply reply;
    reply.status = status;
    reply.body = std::move(body);
    script_.push_back(std::move(reply));
  }
  void no_answer(int times) {
    for (int i = 0; i < times; ++i) {
      HttpReply reply;
      reply.transport = KRINO_UNAVAILABLE;
      reply.error = "connection refused";
      script_.push_back(std::move(reply));
    }
  }
  HttpReply send(std::string_view, const std::string& url, const krino::server::HeaderList& headers, std::string_view, uint32_t) override {
    urls.push_back(url);
    for (const auto& [name, value] : headers)
      if (name == "Authorization") authorization = value;
    BOOST_REQUIRE(!script_.empty());
    HttpReply reply = std::move(script_.front());
    script_.pop_front();
    return reply;
  }
  std::vector<std::string> urls;
  std::string authorization;

 private:
  std::deque<HttpReply> script_;
};

// A page of items `first`..`first + count - 1` of a version with `total` items.
std::string items_page(std::int64_t version, int first, int count, int total) {
  std::string body = R"({"datasetName":"qa","version":)" + std::to_string(version) + R"(,"content":[)";
  for (int i = first; i < first + count; ++i) {
    if (i > first) body += ',';
    body += R"({"id":"q)" + std::to_string(i) + R"(","ordinal":)" + std::to_string(i) + R"(,"inputs":{"q":)" + std::to_string(i) +
            R"(,"x":1.50},"expectedOutputs":)" + (i % 2 == 0 ? R"({"a":"A"})" : "null") + R"(,"metadata":null})";
  }
  body += R"(],"totalElements":)" + std::to_string(total) + "}";
  return body;
}

struct ResolverFixture {
  krino::test::ScratchDirectory scratch;
  DatasetServerScript server;
  std::vector<std::string> warnings;
  ResolverSettings settings() {
    ResolverSettings made;
    made.server_url = "http://krino.test/";
    made.api_key = "krino_key";
    made.cache_root = scratch / "cache";
    made.retry.retries = 1;
    return made;
  }
  ResolvedDataset resolve(const std::string& uri, const ResolverSettings& with) {
    return resolve_server_dataset(uri, with, server, [this](const std::string& w) { warnings.push_back(w); },
                                  [](std::chrono::milliseconds) {});
  }
  ResolvedDataset resolve(const std::string& uri) { return resolve(uri, settings()); }
};

// The message of the krino::Error `run` throws.
template <class Run>
std::string error_of(Run&& run, krino_status expected) {
  try {
    run();
  } catch (const krino::Error& error) {
    BOOST_TEST(error.code() == expected);
    return error.what();
  }
  BOOST_FAIL("no error");
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(server_datasets_resolver)

BOOST_AUTO_TEST_CASE(uris_need_a_name_and_a_version) {
  BOOST_TEST(parse_dataset_uri("dataset://qa@3").text() == "qa@3");
  BOOST_TEST(!parse_dataset_uri("dataset://qa@latest").version.has_value());
  for (const char* bad : {"dataset://qa", "dataset://qa@", "dataset://qa@0", "dataset://qa@-1", "dataset://qa@1x", "dataset://@1",
                          "dataset://a/b@1", "file://qa@1"}) {
    const std::string message = error_of([&] { parse_dataset_uri(bad); }, KRINO_INVALID_ARGUMENT);
    BOOST_TEST(message.rfind(bad, 0) == 0, message);
  }
}

BOOST_FIXTURE_TEST_CASE(latest_is_paged_at_the_version_its_first_page_names_and_cached, ResolverFixture) {
  server.answer(200, items_page(4, 0, 1000, 1001));
  server.answer(200, items_page(4, 1000, 1, 1001));
  const ResolvedDataset got = resolve("dataset://qa@latest");
  BOOST_TEST(got.version == 4);
  BOOST_TEST(!got.from_cache);
  BOOST_REQUIRE_EQUAL(got.examples.size(), 1001u);
  BOOST_TEST(server.urls[0] == "http://krino.test/api/v1/datasets/qa/versions/latest/items?size=1000&page=0");
  BOOST_TEST(server.urls[1] == "http://krino.test/api/v1/datasets/qa/versions/4/items?size=1000&page=1");
  BOOST_TEST(server.authorization == "Bearer krino_key");
  BOOST_TEST(got.examples[0] == R"({"id":"q0","datasetItemId":"q0","inputs":{"q":0,"x":1.50},"expectedOutputs":{"a":"A"},"metadata":{}})");
  BOOST_TEST(got.examples[1] == R"({"id":"q1","datasetItemId":"q1","inputs":{"q":1,"x":1.50},"expectedOutputs":{},"metadata":{}})");
  // Cached under the concrete version, one line per example, and nothing else left in the folder.
  const auto cached = DatasetCache(scratch / "cache").load("qa", 4);
  BOOST_REQUIRE(cached.has_value());
  BOOST_TEST(*cached == got.examples);
  BOOST_TEST(std::distance(std::filesystem::directory_iterator(scratch / "cache" / "qa@4"), std::filesystem::directory_iterator()) == 1);
  BOOST_TEST(warnings.empty());
}

BOOST_FIXTURE_TEST_CASE(a_pinned_version_falls_back_to_the_cache_only_when_unreachable, ResolverFixture) {
  // Never cached: unreachable is an error naming the URI.
  server.no_answer(2);
  const std::string none = error_of([&] { resolve("dataset://qa@2"); }, KRINO_UNAVAILABLE);
  BOOST_TEST(none.rfind("dataset://qa@2: the server cannot be reached", 0) == 0, none);
  BOOST_TEST(none.find("no copy of this version is cached") != std::string::npos);

  server.answer(200, items_page(2, 0, 3, 3));
  BOOST_REQUIRE_EQUAL(resolve("dataset://qa@2").examples.size(), 3u);
  // Down (no answer, then a 503 after the retry): the cached copy stands in, with a warning.
  server.no_answer(1);
  server.answer(503, "{}");
  const ResolvedDataset offline = resolve("dataset://qa@2");
  BOOST_TEST(offline.from_cache);
  BOOST_TEST(offline.examples.size() == 3u);
  BOOST_REQUIRE_EQUAL(warnings.size(), 1u);
  BOOST_TEST(warnings[0].find("using the cached copy") != std::string::npos);

  // `latest` is never read from the cache.
  server.no_answer(2);
  const std::string latest = error_of([&] { resolve("dataset://qa@latest"); }, KRINO_UNAVAILABLE);
  BOOST_TEST(latest.find("@latest is never read from the cache") != std::string::npos, latest);
  // A 4xx is never masked: the version is cached, yet a 404 (deleted) or a 403 is the answer.
  server.answer(404, R"({"error":"not_found","message":"no dataset qa"})");
  const std::string gone = error_of([&] { resolve("dataset://qa@2"); }, KRINO_NOT_FOUND);
  BOOST_TEST(gone.rfind("dataset://qa@2: the server has no dataset version qa@2", 0) == 0, gone);
  server.answer(403, R"({"error":"forbidden"})");
  error_of([&] { resolve("dataset://qa@2"); }, KRINO_INVALID_ARGUMENT);
  // Nor is an answer that is not a page of items.
  for (const char* body : {"not json", R"({"version":2,"content":[]})", R"({"version":2,"totalElements":1,"content":[{"id":"a"}]})",
                           R"({"version":2,"totalElements":1,"content":[{"id":"","inputs":{}}]})"}) {
    server.answer(200, body);
    const std::string bad = error_of([&] { resolve("dataset://qa@2"); }, KRINO_INVALID_ARGUMENT);
    BOOST_TEST(bad.rfind("dataset://qa@2: the server's answer for qa@2 page 0", 0) == 0, bad);
  }
  // A server that sends fewer items than it counts.
  server.answer(200, items_page(2, 0, 2, 3));
  server.answer(200, items_page(2, 2, 0, 3));
  error_of([&] { resolve("dataset://qa@2"); }, KRINO_INVALID_ARGUMENT);
}

BOOST_FIXTURE_TEST_CASE(without_a_server_url_it_resolves_nothing, ResolverFixture) {
  ResolverSettings inert = settings();
  inert.server_url.clear();
  const std::string message = error_of([&] { resolve("dataset://qa@1", inert); }, KRINO_FAILED_PRECONDITION);
  BOOST_TEST(message.rfind("dataset://qa@1: no server to read it from: set KRINO_SERVER_URL", 0) == 0, message);
  BOOST_TEST(server.urls.empty());
}

BOOST_FIXTURE_TEST_CASE(an_unwritable_cache_warns_and_the_run_goes_on, ResolverFixture) {
  ResolverSettings blocked = settings();
  { std::ofstream file(scratch / "file"); }
  blocked.cache_root = scratch / "file" / "cache";
  server.answer(200, items_page(1, 0, 1, 1));
  BOOST_TEST(resolve("dataset://qa@1", blocked).examples.size() == 1u);
  BOOST_REQUIRE_EQUAL(warnings.size(), 1u);
  BOOST_TEST(warnings[0].find("not cached for offline use") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
