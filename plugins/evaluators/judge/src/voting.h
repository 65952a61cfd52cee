// N-vote judging, shared by every judge evaluator: `votes: N` runs the evaluator's judge calls N
// times, each pass with its own seed, and folds the N results into one.
//
//   vote seed i      splitmix64(context seed + i), as a non-negative int64, written into every
//                    judgerequest of pass i. The host caches by the whole request, seed included,
//                    so each vote is its own cache entry; a repeated run hits all N.
//   mean (default)   score = mean of the votes' scores; success from that score and the threshold
//                    (in the evaluator's direction: hallucination passes at or below it).
//   majority         the verdict (pass or fail) more votes reached; a tie FAILS (a gate should not
//                    pass when the judges split evenly); score = mean of the votes on the winning
//                    side, so score and verdict agree.
//   agreement        share of the votes whose own verdict is the final one.
//
// The result's reason and evaluator metadata are those of the representative vote: among the votes
// that agree with the final verdict, the one whose score is nearest the final score (the earliest on
// a tie). metadata adds votes [{score, success, reason}], agreement and voteAggregation.
//
// With votes: 1 (the default) nothing changes: one pass, no seed in the request, no vote metadata.
// A pass that made no judge call (an empty task list, no tool calls) would give N identical votes,
// so it is returned as it is. A vote that fails (the judge cannot answer, an unreadable reply)
// makes the whole evaluation fail: no silent vote dropping.
#ifndef KRINO_JUDGE_VOTING_H
#define KRINO_JUDGE_VOTING_H

#include <krino/evaluator_options.hpp>
#include <krino/plugin.hpp>

#include <cstdint>
#include <functional>
#include <string_view>

namespace krino::judge {

enum class VoteAggregation { mean, majority };

struct VotingOptions {
  std::int64_t votes = 1;
  VoteAggregation aggregation = VoteAggregation::mean;
};

// The schema properties of the two options, for an evaluator's config schema (string literal
// concatenation: ends with a comma, so put it before another property).
#define KRINO_JUDGE_VOTING_PROPERTIES                                                                                \
  R"json("votes": {"type": "integer", "minimum": 1, "default": 1,)json"                                              \
  R"json( "description": "Ask the judge this many times, each time with a different seed, and aggregate (vote_aggregation)."},)json" \
  R"json("vote_aggregation": {"enum": ["mean", "majority"], "default": "mean",)json"                                 \
  R"json( "description": "mean: the mean of the votes' scores; majority: the verdict most votes reached (a tie fails), scored by the mean of the votes on that side."},)json"

// Reads `votes` (an integer >= 1, default 1) and `vote_aggregation` (mean | majority).
VotingOptions read_voting_options(const Config& config);

// The seed of vote `index` for a call whose context seed is `context_seed`.
std::int64_t vote_seed(std::uint64_t context_seed, std::int64_t index);

enum class Better { higher, lower };

struct JudgeCall;

// Runs `one_pass` once per vote (see above) and aggregates. With one vote, returns its result as is.
EvalResult run_votes(const VotingOptions& voting, const CommonOptions& common, Better better, const CallContext& ctx,
                     const std::function<EvalResult(const JudgeCall&)>& one_pass);

}  // namespace krino::judge

#endif  // KRINO_JUDGE_VOTING_H
