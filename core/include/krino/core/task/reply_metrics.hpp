#pragma once
// What a system under test reported about its own cost, read from its reply: token usage in the
// OpenAI shape (usage.prompt_tokens / completion_tokens), the Anthropic and Responses shape
// (usage.input_tokens / output_tokens), or krino's own (metrics.tokensIn / tokensOut / costUsd), and
// the model that answered. A reported cost is kept as given; otherwise the price table prices the
// tokens by model: an unknown model or missing tokens give no cost, never an error (docs/judges.md#cost).
#include "krino/core/usage/price_table.hpp"
#include "krino/core/task/task.hpp"

#include <boost/json/value.hpp>

namespace krino::core {

// `latency_ms` is what the host measured; the rest comes from `reply` (any JSON; only an object
// can carry usage).
CallMetrics metrics_from_reply(const boost::json::value& reply, double latency_ms, const PriceTable& prices);

}  // namespace krino::core
