#include "krino/core/common/error.hpp"
#include "krino/core/shard/shard_spec.hpp"

#include <boost/test/unit_test.hpp>

#include <array>

using namespace krino::core;

BOOST_AUTO_TEST_SUITE(shard_spec)

BOOST_AUTO_TEST_CASE(fnv1a64_matches_the_published_test_vectors) {
  // From the FNV reference test suite (Fowler, Noll, Vo), so other tools can check themselves.
  BOOST_TEST(fnv1a64("") == 0xcbf29ce484222325ULL);
  BOOST_TEST(fnv1a64("a") == 0xaf63dc4c8601ec8cULL);
  BOOST_TEST(fnv1a64("foobar") == 0x85944171f73967e8ULL);
}

BOOST_AUTO_TEST_CASE(an_example_with_an_id_goes_by_its_id_whatever_its_position) {
  const uint32_t first = shard_of(std::string_view("q-42"), 0, 7);
  for (uint64_t index = 1; index < 100; ++index) BOOST_TEST(shard_of(std::string_view("q-42"), index, 7) == first);
  BOOST_TEST(first == fnv1a64("q-42") % 7 + 1);
}

BOOST_AUTO_TEST_CASE(an_example_without_an_id_goes_by_its_index) {
  for (uint64_t index = 0; index < 20; ++index) BOOST_TEST(shard_of(std::nullopt, index, 4) == index % 4 + 1);
}

BOOST_AUTO_TEST_CASE(every_example_belongs_to_exactly_one_shard) {
  for (uint64_t index = 0; index < 200; ++index) {
    const std::string id = "id-" + std::to_string(index);
    for (bool with_id : {true, false}) {
      const auto key = with_id ? std::optional<std::string_view>(id) : std::nullopt;
      int owners = 0;
      for (uint32_t k = 1; k <= 5; ++k) owners += ShardSpec{k, 5}.owns(key, index) ? 1 : 0;
      BOOST_TEST(owners == 1);
    }
  }
}

BOOST_AUTO_TEST_CASE(ids_spread_evenly_over_the_shards) {
  std::array<int, 4> counts{};
  for (int i = 0; i < 20000; ++i) ++counts[shard_of(std::string("item-") + std::to_string(i), 0, 4) - 1];
  for (int c : counts) BOOST_TEST((c > 4750 && c < 5250), "shard count " << c);
}

BOOST_AUTO_TEST_CASE(a_single_shard_owns_everything) {
  const ShardSpec only{1, 1};
  for (uint64_t index = 0; index < 10; ++index) {
    BOOST_TEST(only.owns(std::string_view("x"), index));
    BOOST_TEST(only.owns(std::nullopt, index));
  }
}

BOOST_AUTO_TEST_CASE(parse_reads_k_of_n) {
  const ShardSpec s = parse_shard_spec("3/8");
  BOOST_TEST(s.index == 3u);
  BOOST_TEST(s.count == 8u);
  BOOST_TEST(s.to_string() == "3/8");
}

BOOST_AUTO_TEST_CASE(parse_refuses_what_is_not_k_of_n_with_a_usage_error) {
  for (const char* bad : {"0/4", "5/4", "4", "a/4", "1/b", "1/0", "-1/4", " 1/4", "1/4x", "/4", "1/"}) {
    try {
      parse_shard_spec(bad);
      BOOST_ERROR("accepted " << bad);
    } catch (const KrinoError& e) {
      BOOST_TEST((e.kind() == ErrorKind::usage));
      BOOST_TEST(std::string(e.what()).find("--shard") != std::string::npos, e.what());
    }
  }
  try {
    parse_shard_spec("0/4");
  } catch (const KrinoError& e) {
    BOOST_TEST(std::string(e.what()).find("1 to 4") != std::string::npos, e.what());
  }
}

BOOST_AUTO_TEST_SUITE_END()
