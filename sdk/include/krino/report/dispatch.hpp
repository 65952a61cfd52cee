// Event dispatch for reporters that work on typed events, and the guard for reporters that write
// their document from a destructor. Header-only.
#ifndef KRINO_REPORT_DISPATCH_HPP
#define KRINO_REPORT_DISPATCH_HPP

#include <krino/plugin.hpp>
#include <krino/report/events.hpp>

#include <cstdio>
#include <exception>

namespace krino::report {

// Reads `event` and calls the matching member of `handler`: on_run_started(const RunStarted&),
// on_item(const ItemFinished&), on_run_finished(const Finished&) or
// on_experiment_finished(const Finished&). Events of other types are skipped, as readers must.
// Throws krino::Error when the event is not a JSON object.
template <class Handler>
void dispatch_event(const krino::Event& event, Handler& handler) {
  const boost::json::object& document = event.json();
  const std::string_view type = event_type(document);
  if (type == "item_finished") handler.on_item(read_item_finished(document));
  else if (type == "run_started") handler.on_run_started(read_run_started(document));
  else if (type == "run_finished") handler.on_run_finished(read_finished(document));
  else if (type == "experiment_finished") handler.on_experiment_finished(read_finished(document));
}

// Runs `finish` from a destructor: a reporter destroyed before the experiment ended still writes
// its report. A destructor cannot return an error through the ABI and a report silently missing
// would mislead, so a failure is printed to stderr, naming the reporter.
template <class Finish>
void finish_from_destructor(const char* reporter, Finish&& finish) noexcept {
  try {
    finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "krino %s reporter: %s\n", reporter, e.what());
  } catch (...) {
    std::fprintf(stderr, "krino %s reporter: could not write its report\n", reporter);
  }
}

}  // namespace krino::report

#endif  // KRINO_REPORT_DISPATCH_HPP
