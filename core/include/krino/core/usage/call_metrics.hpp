#pragma once
// Measurements of one call to a model or a system under test: what a task reports as an
// item's metrics, from a reply, a trace or a model call. Every field may be unknown. The one model
// is the event codec's, which writes it as an item's `metrics`.
// See docs/experiment-file.md#tasks.
#include <krino/event/call_metrics.hpp>

#include <boost/json/object.hpp>

namespace krino::core {

using CallMetrics = krino::event::CallMetrics;

// Recorded metrics from a dataset (a replayed call): read leniently, since users write them; a
// member of the wrong type is unknown.
CallMetrics call_metrics_from_json(const boost::json::object& object);

}  // namespace krino::core
