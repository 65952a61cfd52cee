// What the console reporter reads of krino.event/1: the event codec's models (krino/event/), and
// the verdict it shows for an item.
#ifndef KRINO_CONSOLE_EVENTS_HPP
#define KRINO_CONSOLE_EVENTS_HPP

#include <krino/report/events.hpp>

namespace krino::console {

using krino::event::EvaluatorSummary;
using krino::event::Finished;
using krino::event::ItemError;
using krino::event::ItemFinished;
using krino::event::ItemResult;
using krino::event::JudgeTotals;
using krino::event::RunStarted;
using krino::event::Summary;

enum class Verdict { pass, fail, error };

// An item with an error is an error; otherwise the item's own success decides.
inline Verdict verdict_of(const ItemFinished& item) {
  if (item.error) return Verdict::error;
  return item.success ? Verdict::pass : Verdict::fail;
}

}  // namespace krino::console

#endif  // KRINO_CONSOLE_EVENTS_HPP
