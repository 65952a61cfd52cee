// The krino.event/1 models as reporters name them. There is one model of each event, the event
// codec's (krino/event/); these are its names in the reporters' namespace. Header-only.
//
// Sections of an item (inputs, outputs, metadata) and each result's document are views into the
// event's text, valid while the event is.
#ifndef KRINO_REPORT_EVENTS_HPP
#define KRINO_REPORT_EVENTS_HPP

#include <krino/event/event_head.hpp>
#include <krino/event/item_finished.hpp>
#include <krino/event/run_finished.hpp>
#include <krino/event/run_started.hpp>

namespace krino::report {

using krino::event::CallMetrics;
using krino::event::EvaluatorInfo;
using krino::event::EvaluatorSummary;
using krino::event::Finished;
using krino::event::ItemError;
using krino::event::ItemFinished;
using krino::event::ItemStatus;
using krino::event::JudgeTotals;
using krino::event::JudgeUsage;
using krino::event::read_finished;
using krino::event::read_item_finished;
using krino::event::read_run_started;
using krino::event::RunStarted;
using krino::event::status_name;
using krino::event::Summary;
using Result = krino::event::ItemResult;

}  // namespace krino::report

#endif  // KRINO_REPORT_EVENTS_HPP
