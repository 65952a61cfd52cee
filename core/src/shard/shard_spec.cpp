#include "krino/core/shard/shard_spec.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/common/text_number.hpp"

namespace krino::core {

uint64_t fnv1a64(std::string_view bytes) {
  uint64_t hash = 14695981039346656037ULL;
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  return hash;
}

uint32_t shard_of(std::optional<std::string_view> id, uint64_t dataset_index, uint32_t count) {
  const uint64_t key = id ? fnv1a64(*id) : dataset_index;
  return static_cast<uint32_t>(key % count) + 1;
}

bool ShardSpec::owns(std::optional<std::string_view> id, uint64_t dataset_index) const {
  return shard_of(id, dataset_index, count) == index;
}

std::string ShardSpec::to_string() const { return std::to_string(index) + "/" + std::to_string(count); }

ShardSpec parse_shard_spec(std::string_view text) {
  const std::string shown(text);
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos)
    throw usage_error("--shard '" + shown + "': write the shard as K/N, for example 2/4 (the second of four shards)");
  const auto k = parse_whole_number<uint32_t>(text.substr(0, slash));
  const auto n = parse_whole_number<uint32_t>(text.substr(slash + 1));
  if (!k || !n)
    throw usage_error("--shard '" + shown + "': K and N must be whole numbers, as in 2/4");
  if (*n == 0) throw usage_error("--shard '" + shown + "': the shard count N must be at least 1");
  if (*k == 0 || *k > *n)
    throw usage_error("--shard '" + shown + "': shards are numbered 1 to " + std::to_string(*n) +
                      " (with a 0-based index such as JOB_COMPLETION_INDEX, pass $((INDEX+1))/" + std::to_string(*n) + ")");
  return ShardSpec{*k, *n};
}

}  // namespace krino::core
