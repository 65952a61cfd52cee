#include "voting.h"

#include "judge_call.h"

#include <boost/json.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace krino::judge {
namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27U)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31U);
}

bool passes(double score, double threshold, Better better) {
  return better == Better::higher ? score >= threshold : score <= threshold;
}

}  // namespace

VotingOptions read_voting_options(const Config& config) {
  VotingOptions options;
  options.votes = config.get_int("votes");
  if (options.votes < 1) throw invalid_argument("option 'votes' must be at least 1, got " + std::to_string(options.votes));
  const std::string aggregation = read_choice(config, "vote_aggregation", {"mean", "majority"});
  options.aggregation = aggregation == "majority" ? VoteAggregation::majority : VoteAggregation::mean;
  return options;
}

std::int64_t vote_seed(std::uint64_t context_seed, std::int64_t index) {
  const std::uint64_t mixed = splitmix64(context_seed + static_cast<std::uint64_t>(index));
  return static_cast<std::int64_t>(mixed & 0x7fffffffffffffffULL);
}

EvalResult run_votes(const VotingOptions& voting, const CommonOptions& common, Better better, const CallContext& ctx,
                     const std::function<EvalResult(const JudgeCall&)>& one_pass) {
  if (voting.votes <= 1) return one_pass(JudgeCall(ctx));

  std::vector<EvalResult> votes;
  votes.reserve(static_cast<std::size_t>(voting.votes));
  for (std::int64_t i = 0; i < voting.votes; ++i) {
    const JudgeCall call(ctx, vote_seed(ctx.seed(), i));
    votes.push_back(one_pass(call));
    if (i == 0 && call.calls == 0) return std::move(votes.front());  // no judge asked: every vote would agree
  }

  // The final verdict and score. An unscored vote (none of the judge evaluators gives one today) is a
  // failing vote that adds no score.
  bool verdict = false;
  std::optional<double> score;
  auto mean_of = [&](auto&& include) -> std::optional<double> {
    double sum = 0.0;
    std::size_t count = 0;
    for (const EvalResult& vote : votes) {
      if (!vote.score || !include(vote)) continue;
      sum += *vote.score;
      ++count;
    }
    if (count == 0) return std::nullopt;
    return sum / static_cast<double>(count);
  };
  if (voting.aggregation == VoteAggregation::mean) {
    score = mean_of([](const EvalResult&) { return true; });
    verdict = score && passes(*score, common.threshold, better);
  } else {
    std::size_t passing = 0;
    for (const EvalResult& vote : votes)
      if (vote.success) ++passing;
    verdict = 2 * passing > votes.size();  // a tie fails
    score = mean_of([&](const EvalResult& vote) { return vote.success == verdict; });
  }

  std::size_t agreeing = 0;
  std::size_t representative = votes.size();
  double nearest = std::numeric_limits<double>::infinity();
  boost::json::array listed;
  for (std::size_t i = 0; i < votes.size(); ++i) {
    const EvalResult& vote = votes[i];
    listed.push_back(boost::json::object{{"score", vote.score ? boost::json::value(*vote.score) : nullptr},
                                         {"success", vote.success},
                                         {"reason", vote.reason}});
    if (vote.success != verdict) continue;
    ++agreeing;
    const double distance = (vote.score && score) ? std::fabs(*vote.score - *score) : 0.0;
    if (representative == votes.size() || distance < nearest) {
      representative = i;
      nearest = distance;
    }
  }
  if (representative == votes.size()) representative = 0;

  EvalResult result = std::move(votes[representative]);
  result.name = common.name;
  result.threshold = common.threshold;
  result.score = score;
  result.success = verdict;
  result.metadata["votes"] = std::move(listed);
  result.metadata["agreement"] = static_cast<double>(agreeing) / static_cast<double>(votes.size());
  result.metadata["voteAggregation"] = voting.aggregation == VoteAggregation::mean ? "mean" : "majority";
  return result;
}

}  // namespace krino::judge
