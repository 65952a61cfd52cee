#pragma once
// `krino merge`: the krino.event/1 files of the shards of one experiment (`krino run --shard K/N`)
// back into the file a single, unsharded run would have written (docs/sharding.md).
//
// Each shard file is in dataset order, so the item lines of a run are a k-way merge by global
// index with one line per shard in memory. Summaries are not combined from the shards' summaries:
// the merged items go through RunStatistics and ExperimentStatistics, as in the runner, so every
// number is the one the unsharded run would have reported.
#include <boost/json/object.hpp>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace krino::core {

struct MergeOptions {
  std::vector<std::string> inputs;  // one file per shard, in any order
  bool allow_missing = false;       // merge even when some shard indices have no file
};

struct MergeReport {
  uint32_t shard_count = 0;
  std::vector<uint32_t> missing;  // shard indices without a file (only with allow_missing)
  uint32_t runs = 0;
  uint64_t items = 0;  // item lines written, over every run
  boost::json::object summary;  // the experiment_finished summary
};

// Writes the merged events to `out`. Throws a usage error when the files do not belong together
// (another experiment, shard count or runs; a shard twice or missing) and a runtime error when one
// cannot be read or is incomplete (an interrupted shard).
MergeReport merge_shards(const MergeOptions& options, std::ostream& out);

// merge_shards into `output` ("-": standard output) through an io::AtomicFile: a temporary file
// beside it, synced and renamed into place, so a failed or killed merge leaves no partial file and
// the old `output`, if any, as it was. Refuses an `output` that is one of the inputs.
MergeReport merge_shard_files(const MergeOptions& options, const std::string& output);

}  // namespace krino::core
