#include "krino/core/llm/reply_cache.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
#include <unistd.h>

#include <fstream>
#include <thread>
#include <vector>

using namespace krino::core;
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

const std::chrono::system_clock::time_point kCacheNow =
    std::chrono::sys_days{std::chrono::year{2024} / 5 / 1} + std::chrono::hours{12} + std::chrono::seconds{34};

LlmCallIdentity identity() {
  LlmCallIdentity id;
  id.provider = "openai";
  id.base_url = "http://127.0.0.1:8080/v1";
  id.model = "judge-model";
  id.request = json::parse(R"({"judge": "strict", "temperature": 0, "seed": 7, "max_tokens": 256,
    "response_format": "json",
    "messages": [{"role": "system", "content": "You grade."}, {"role": "user", "content": "Is 2+2 4?"}]})")
                   .as_object();
  return id;
}

ReplyCacheEntry reply(std::string content = R"({"score": 1, "reason": "yes"})") {
  return ReplyCacheEntry{std::move(content), "judge-model-2024", "", "", 42, 7, ""};
}

// A fresh folder per test, removed at the end.
struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("krino-judge-cache-test-" + std::to_string(::getpid()) + "-" +
            boost::unit_test::framework::current_test_case().p_name.get());
    fs::remove_all(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(judge_cache)

BOOST_AUTO_TEST_CASE(key_is_a_sha256_hex) {
  auto key = make_reply_cache_key(identity());
  BOOST_TEST(key.hex.size() == 64u);
  BOOST_TEST(key.hex.find_first_not_of("0123456789abcdef") == std::string::npos);
  BOOST_TEST(make_reply_cache_key(identity()).hex == key.hex);
}

BOOST_AUTO_TEST_CASE(everything_that_changes_the_answer_changes_the_key) {
  const std::string base = make_reply_cache_key(identity()).hex;
  auto differs = [&](auto change) {
    auto id = identity();
    change(id);
    return make_reply_cache_key(id).hex != base;
  };
  BOOST_TEST(differs([](LlmCallIdentity& id) { id.provider = "anthropic"; }));
  BOOST_TEST(differs([](LlmCallIdentity& id) { id.base_url = "http://127.0.0.1:8081/v1"; }));
  BOOST_TEST(differs([](LlmCallIdentity& id) { id.model = "other-model"; }));
  BOOST_TEST(differs([](LlmCallIdentity& id) { id.request["temperature"] = 0.2; }));
  BOOST_TEST(differs([](LlmCallIdentity& id) { id.request["seed"] = 8; }));
  BOOST_TEST(differs([](LlmCallIdentity& id) { id.request["max_tokens"] = 512; }));
  BOOST_TEST(differs([](LlmCallIdentity& id) { id.request["response_format"] = "text"; }));
  BOOST_TEST(differs([](LlmCallIdentity& id) {
    id.request["messages"].as_array()[1].as_object()["content"] = "Is 2+2 5?";
  }));
  BOOST_TEST(differs([](LlmCallIdentity& id) {
    id.request["messages"].as_array()[1].as_object()["role"] = "assistant";
  }));
  BOOST_TEST(differs([](LlmCallIdentity& id) { id.request["top_p"] = 0.9; }));  // a field added later
}

BOOST_AUTO_TEST_CASE(the_judge_name_key_order_and_number_spelling_do_not_change_the_key) {
  const std::string base = make_reply_cache_key(identity()).hex;
  auto id = identity();
  id.request["judge"] = "another-name-for-the-same-settings";
  BOOST_TEST(make_reply_cache_key(id).hex == base);
  id.request.erase("judge");
  BOOST_TEST(make_reply_cache_key(id).hex == base);

  auto reordered = identity();
  reordered.request = json::parse(R"({"messages": [{"content": "You grade.", "role": "system"},
    {"content": "Is 2+2 4?", "role": "user"}], "response_format": "json", "max_tokens": 256,
    "seed": 7, "temperature": 0.0})")
                          .as_object();
  BOOST_TEST(make_reply_cache_key(reordered).hex == base);

  auto slash = identity();
  slash.base_url += "/";
  BOOST_TEST(make_reply_cache_key(slash).hex == base);
}

BOOST_AUTO_TEST_CASE(summary_has_the_settings_but_not_the_messages) {
  auto key = make_reply_cache_key(identity());
  BOOST_TEST(key.summary.at("model").as_string() == "judge-model");
  BOOST_TEST(key.summary.at("temperature").as_int64() == 0);
  BOOST_TEST(key.summary.at("seed").as_int64() == 7);
  BOOST_TEST(key.summary.at("messages").as_uint64() == 2u);
  BOOST_TEST(json::serialize(key.summary).find("Is 2+2") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(miss_then_store_then_hit) {
  TempDir dir;
  ReplyCache cache(dir.path);
  auto key = make_reply_cache_key(identity());
  BOOST_TEST(!cache.lookup(key));
  BOOST_TEST(!cache.store(key, reply(), kCacheNow));
  auto hit = cache.lookup(key);
  BOOST_REQUIRE(hit);
  BOOST_TEST(hit->content == R"({"score": 1, "reason": "yes"})");
  BOOST_TEST(hit->model == "judge-model-2024");
  BOOST_TEST(*hit->tokens_in == 42);
  BOOST_TEST(*hit->tokens_out == 7);
  BOOST_TEST(hit->created_at == "2024-05-01T12:00:34Z");
}

BOOST_AUTO_TEST_CASE(entries_live_under_two_hex_digit_folders) {
  TempDir dir;
  ReplyCache cache(dir.path);
  auto key = make_reply_cache_key(identity());
  BOOST_TEST(!cache.store(key, reply(), kCacheNow));
  fs::path expected = dir.path / key.hex.substr(0, 2) / (key.hex.substr(2) + ".json");
  BOOST_TEST(cache.entry_path(key) == expected);
  BOOST_TEST(fs::is_regular_file(expected));
  std::ifstream in(expected);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto stored = json::parse(text).as_object();
  BOOST_TEST(stored.at("keyMaterial").as_object().at("model").as_string() == "judge-model");
  BOOST_TEST(!stored.at("keyMaterial").as_object().contains("request"));
}

BOOST_AUTO_TEST_CASE(changing_temperature_or_model_misses) {
  TempDir dir;
  ReplyCache cache(dir.path);
  BOOST_TEST(!cache.store(make_reply_cache_key(identity()), reply(), kCacheNow));
  auto warmer = identity();
  warmer.request["temperature"] = 0.7;
  BOOST_TEST(!cache.lookup(make_reply_cache_key(warmer)));
  auto other = identity();
  other.model = "judge-model-large";
  BOOST_TEST(!cache.lookup(make_reply_cache_key(other)));
  BOOST_TEST(cache.lookup(make_reply_cache_key(identity())).has_value());
}

BOOST_AUTO_TEST_CASE(null_token_counts_round_trip) {
  TempDir dir;
  ReplyCache cache(dir.path);
  auto key = make_reply_cache_key(identity());
  auto entry = reply();
  entry.tokens_in.reset();
  entry.tokens_out.reset();
  BOOST_TEST(!cache.store(key, entry, kCacheNow));
  auto hit = cache.lookup(key);
  BOOST_REQUIRE(hit);
  BOOST_TEST(!hit->tokens_in);
  BOOST_TEST(!hit->tokens_out);
}

BOOST_AUTO_TEST_CASE(a_corrupt_entry_is_a_miss_and_is_overwritten) {
  TempDir dir;
  ReplyCache cache(dir.path);
  auto key = make_reply_cache_key(identity());
  fs::create_directories(cache.entry_path(key).parent_path());
  for (std::string garbage : {std::string("{\"format\": \"krino.judgecache/1\", \"content\": \"cut"), std::string("[]"),
                              std::string("not json at all"), std::string()}) {
    std::ofstream(cache.entry_path(key), std::ios::trunc) << garbage;
    BOOST_TEST(!cache.lookup(key), garbage);
  }
  BOOST_TEST(!cache.store(key, reply(), kCacheNow));
  BOOST_TEST(cache.lookup(key).has_value());
}

BOOST_AUTO_TEST_CASE(an_entry_filed_under_another_key_is_a_miss) {
  TempDir dir;
  ReplyCache cache(dir.path);
  auto key = make_reply_cache_key(identity());
  auto other = identity();
  other.model = "m2";
  auto other_key = make_reply_cache_key(other);
  BOOST_TEST(!cache.store(other_key, reply(), kCacheNow));
  fs::create_directories(cache.entry_path(key).parent_path());
  fs::copy_file(cache.entry_path(other_key), cache.entry_path(key));
  BOOST_TEST(!cache.lookup(key));
}

BOOST_AUTO_TEST_CASE(concurrent_writers_of_one_key_leave_one_whole_entry) {
  TempDir dir;
  ReplyCache cache(dir.path);
  auto key = make_reply_cache_key(identity());
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      // Big enough that an unsynchronised write would interleave.
      std::string content(200'000, static_cast<char>('a' + t));
      for (int i = 0; i < 20; ++i) {
        if (cache.store(key, reply(content), kCacheNow)) ++failures;
        auto seen = cache.lookup(key);  // readers meanwhile see whole entries only
        if (!seen || seen->content.size() != content.size() ||
            seen->content.find_first_not_of(seen->content[0]) != std::string::npos)
          ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  BOOST_TEST(failures.load() == 0);
  auto hit = cache.lookup(key);
  BOOST_REQUIRE(hit);
  BOOST_TEST(hit->content.size() == 200'000u);
  size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir.path)) files += e.is_regular_file();
  BOOST_TEST(files == 1u);  // no temporary file left behind
}

BOOST_AUTO_TEST_CASE(an_unwritable_directory_is_reported_not_thrown) {
  TempDir dir;
  fs::create_directories(dir.path.parent_path());
  std::ofstream(dir.path) << "a file where the cache folder should be";
  ReplyCache cache(dir.path / "judge");
  auto key = make_reply_cache_key(identity());
  auto failure = cache.store(key, reply(), kCacheNow);
  BOOST_TEST(failure.has_value());
  BOOST_TEST(!cache.lookup(key));
}

BOOST_AUTO_TEST_CASE(default_directory_follows_xdg) {
  BOOST_TEST(*ReplyCache::default_directory("/x/cache", "/home/u") == fs::path("/x/cache/krino/judge"));
  BOOST_TEST(*ReplyCache::default_directory(nullptr, "/home/u") == fs::path("/home/u/.cache/krino/judge"));
  BOOST_TEST(*ReplyCache::default_directory("", "/home/u") == fs::path("/home/u/.cache/krino/judge"));
  BOOST_TEST(*ReplyCache::default_directory("relative/cache", "/home/u") == fs::path("/home/u/.cache/krino/judge"));
  BOOST_TEST(!ReplyCache::default_directory(nullptr, nullptr));
}

BOOST_AUTO_TEST_SUITE_END()
