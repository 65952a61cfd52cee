#pragma once
// The regression gate's view of a stored run (gate/run_projection.hpp), read back from the items
// the store kept (the server's ItemData): so a run an agent ran can be gated against a baseline
// file as `krino gate` gates its report.
#include "krino/core/gate/run_projection.hpp"
#include "krino/core/store/store.hpp"

#include <string>

namespace krino::core::mcp {

// One run of the experiment: every item once, keyed by its dataset position (itemIndex) and id.
RunProjection stored_run_projection(store::Store& store, const store::Scope& scope, const std::string& run_id);

}  // namespace krino::core::mcp
