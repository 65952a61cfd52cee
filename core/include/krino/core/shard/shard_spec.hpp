#pragma once
// Which share of a dataset a sharded run evaluates (`krino run --shard K/N`, docs/sharding.md).
//
// An example belongs to exactly one of N shards, decided by the example alone so that any tool can
// reproduce it: FNV-1a 64 of its `id` (the string's UTF-8 bytes) mod N when it has one, else its
// zero-based dataset index mod N. Shards are numbered from 1, as users write them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace krino::core {

struct ShardSpec {
  uint32_t index = 1;  // 1..count
  uint32_t count = 1;

  // Whether the example at dataset `index`, with id `id` (unescaped; nullopt: none), is in this shard.
  bool owns(std::optional<std::string_view> id, uint64_t dataset_index) const;
  std::string to_string() const;  // "K/N"
};

// "K/N" with 1 <= K <= N. Throws a usage error that says what is wrong.
ShardSpec parse_shard_spec(std::string_view text);

// FNV-1a, 64 bits (offset basis 14695981039346656037, prime 1099511628211).
uint64_t fnv1a64(std::string_view bytes);

// The 1-based shard of an example among `count` shards.
uint32_t shard_of(std::optional<std::string_view> id, uint64_t dataset_index, uint32_t count);

}  // namespace krino::core
