#pragma once
// The baseline file (format v1): the stable projection of a run that a later run is
// compared against, meant to be committed next to the experiment. It changes only when measured
// quality changes: no outputs, no judge prose, no timings.
// See docs/gate.md#the-baseline-file.
#include "krino/core/gate/comparison.hpp"
#include "krino/core/gate/pairing.hpp"
#include "krino/core/gate/run_projection.hpp"

#include <boost/json/object.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace krino::core {

inline constexpr int kBaselineFormatVersion = 1;

struct BaselineItem {
  std::string key;
  std::optional<uint64_t> index;  // written by krino; derived from an "item-<n>" key when absent
  std::string input;              // the input anchor, for people
  std::vector<EvaluatorProjection> evaluators;  // sorted by name; score rounded to 6 decimals
};

struct Baseline {
  std::string experiment;
  Pairing pairing = Pairing::positional;  // positional or dataset_item_id: how the keys were made
  std::vector<BaselineItem> items;        // sorted by index (positional) or by id
  boost::json::object provenance;         // advisory: krino version, judges; never compared
};

// The baseline of a run. `pairing` automatic keys by id when every item has one. Throws a
// configuration error naming the item when an item failed in some run (it has no scores to keep)
// or lacks an id under id pairing.
Baseline make_baseline(const RunProjection& run, Pairing pairing, boost::json::object provenance = {});

// Writes atomically (write_file_atomically: a temporary file in the same directory, synced, then
// renamed), creating the directory.
void write_baseline(const Baseline& baseline, const std::filesystem::path& path);

// Reads and validates: a newer formatVersion, runsPerItem other than 1, no items, a
// blank or repeated key, a positional key not of the form item-<n>, an item without evaluators are
// configuration errors naming the file and the item.
Baseline read_baseline(const std::filesystem::path& path);

// The baseline as the comparison's first side (one run; an item passes when all its evaluators do),
// keyed by `pairing`: dataset_item_id needs an id-keyed baseline, positional needs every item's index.
// A configuration error says how to fix a mismatch.
ComparisonSide side_from_baseline(const Baseline& baseline, Pairing pairing);

// Provenance krino writes: its version and the write time.
boost::json::object default_provenance();

}  // namespace krino::core
