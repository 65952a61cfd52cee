#pragma once
// The fingerprint a run writes into its run_started event and `krino run --resume` compares: the
// settings its results depend on, digested, and the size of the dataset's file.
#include "krino/core/experiment/experiment_config.hpp"

#include <krino/event/run_started.hpp>

namespace krino::core {

// Covers the dataset (URI, resolver, options), the task, the evaluators and their options, runs,
// seed, judges and prices; not the name, description, metadata, reporters, parallelism,
// min_pass_rate, gate or judge cache, which change how a run is reported or judged, not its results.
// Nor the shard: every shard of an experiment, and the file `krino merge` makes of them, carry the
// unsharded run's fingerprint; the shard is in run_started's own `shard` member, which resuming
// checks beside it.
krino::event::RunFingerprint run_fingerprint(const ExperimentConfig& config);

}  // namespace krino::core
