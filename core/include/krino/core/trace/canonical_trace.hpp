#pragma once
// A krino.trace/1 document an extractor wrote, read back by the host: what goes into the test
// case's actual outputs, and what the run reports as the item's metrics.
//
// Actual outputs: "output", "toolCalls", "reasoningSteps" and "turns", laid over the outputs an
// example recorded (a replayed example may carry, say, its retrieval "context" beside its trace).
// Metrics: the trace's tokens; its cost when it reports one, else the price of each model call by
// the experiment's price table (the reply's model, then the requested one), else the price of all
// its tokens by the trace's model; a trace with an unpriced model call has no cost at all, since a
// partial sum would read as the whole.
#include "krino/core/usage/call_metrics.hpp"
#include "krino/core/usage/price_table.hpp"

#include <boost/json/object.hpp>

#include <string>
#include <string_view>

namespace krino::core {

class CanonicalTrace {
 public:
  // Throws std::invalid_argument saying what is wrong when `text` is not a krino.trace/1 document
  // (not JSON, not an object, no "toolCalls" list, a call without a name or with non-object
  // arguments).
  explicit CanonicalTrace(std::string_view text);

  // The actual outputs as a JSON object text: `recorded` (an object's text, or empty) with the
  // trace's four members set over it.
  std::string actual_outputs(std::string_view recorded = {}) const;

  // Tokens, cost and latency as the trace reports them, cost priced by `prices` when absent.
  CallMetrics metrics(const PriceTable& prices) const;

  const boost::json::object& json() const { return document_; }

 private:
  boost::json::object document_;
};

}  // namespace krino::core
