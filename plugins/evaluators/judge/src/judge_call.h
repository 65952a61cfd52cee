// What every judge evaluator shares: its common options (name, threshold, judge, prompt, votes,
// vote_aggregation), one call to the host's judge service, and reading fields out of the judge's
// JSON reply.
#ifndef KRINO_JUDGE_JUDGE_CALL_H
#define KRINO_JUDGE_JUDGE_CALL_H

#include "prompt_template.h"
#include "voting.h"

#include <krino/evaluator_options.hpp>
#include <krino/plugin.hpp>

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace krino::judge {

using Variables = std::set<std::string, std::less<>>;

struct JudgeSettings {
  CommonOptions common;
  std::optional<std::string> judge;  // a judge named in the experiment file; nullopt: the default judge
  PromptTemplate prompt;
  VotingOptions voting;  // votes and vote_aggregation (voting.h)
};

// The judge calls of one evaluation pass. Under N-vote judging each vote is one pass with its own
// seed; otherwise `seed` is empty and the host derives the seed from the call context. Built
// implicitly from a CallContext, so code that asks once passes its context as before.
struct JudgeCall {
  JudgeCall(const CallContext& context) : ctx(context) {}  // NOLINT(google-explicit-constructor)
  JudgeCall(const CallContext& context, std::int64_t vote_seed) : ctx(context), seed(vote_seed) {}

  const CallContext& ctx;
  std::optional<std::int64_t> seed;
  mutable std::size_t calls = 0;  // judge calls made in this pass
};

// Reads `name`, `threshold`, `judge`, `prompt`, `votes` and `vote_aggregation`, defaulted by the
// schema `config` was given (apply_schema). Without `prompt` the template is the built-in
// prompts/<prompt_name>.txt. Either way its placeholders must be among `variables`.
JudgeSettings read_judge_settings(const Config& config, std::string_view prompt_name, const Variables& variables);
// The same with `name` and `threshold` already read, for an evaluator whose threshold defaults to
// another option.
JudgeSettings read_judge_settings(const Config& config, CommonOptions common, std::string_view prompt_name,
                                  const Variables& variables);

// Sends `prompt` as the one user message of a krino.judgerequest/1 asking for a JSON reply (with the
// vote's seed under N-vote judging, else no seed: the host derives it from the call) and returns the JSON object in the reply text, read leniently
// (judge_reply.h). With a non-empty `array_key`, a bare JSON array reply is accepted as {array_key: [...]}.
// Throws krino::Error with the host's status when the judge cannot answer, and KRINO_INTERNAL with
// an excerpt of the reply when it holds no JSON object.
boost::json::object ask_judge(const JudgeCall& call, const JudgeSettings& settings, std::string_view evaluator,
                              const std::string& prompt, std::string_view array_key = {});

// The error for a reply that is JSON but not the JSON asked for: KRINO_INTERNAL, with `why` and the
// reply's compact JSON (cut short). Never a silent 0 (issue 4).
[[noreturn]] void throw_unusable_reply(std::string_view evaluator, const std::string& why,
                                       const boost::json::object& reply);

// Reply fields. A number may come as a JSON number or a string holding one ("4"); a boolean as a
// JSON boolean or one of the strings true/false/yes/no (any case). nullopt when absent or unreadable.
std::optional<double> reply_number(const boost::json::object& reply, std::string_view key);
std::optional<bool> reply_bool(const boost::json::object& reply, std::string_view key);
// The string at `key`, or empty when absent or not a string.
std::string reply_string(const boost::json::object& reply, std::string_view key);

}  // namespace krino::judge

#endif  // KRINO_JUDGE_JUDGE_CALL_H
