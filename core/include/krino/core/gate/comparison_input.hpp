#pragma once
// A file given to `krino compare` (either side) or `krino gate` (the candidate): the JSON Lines
// output of a run, or a baseline file. Told apart by content, not by name.
#include "krino/core/gate/baseline_file.hpp"
#include "krino/core/gate/comparison.hpp"
#include "krino/core/gate/run_projection.hpp"

#include <optional>
#include <string>

namespace krino::core {

struct ComparisonInput {
  std::string path;
  std::optional<Baseline> baseline;  // exactly one of the two is set
  std::optional<RunProjection> run;

  // Whether every item carries an id (a baseline: whether it is keyed by id).
  bool keyed_by_id() const;
};

// A file whose first line is a krino.event/1 document is a run; anything else is read as a baseline.
ComparisonInput load_comparison_input(const std::string& path);

// automatic: by id when both sides have ids for every item, else by position.
Pairing resolve_pairing(Pairing requested, const ComparisonInput& a, const ComparisonInput& b);

ComparisonSide to_side(const ComparisonInput& input, Pairing pairing);

}  // namespace krino::core
