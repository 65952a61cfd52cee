// Event dispatch for reporters that work on typed events, and the guard for reporters that write
// their document from a destructor. Header-only.
#ifndef KRINO_REPORT_DISPATCH_HPP
#define KRINO_REPORT_DISPATCH_HPP

#include <krino/plugin.hpp>
#include <krino/report/events.hpp>

#include <krino/json_parse.hpp>
#include <boost/json/parse.hpp>

#include <cstdio>
#include <exception>

namespace krino::report {

// Reads `event` and calls the matching member of `handler`: on_run_started(const RunStarted&),
// on_item(const ItemFinished&), on_run_finished(const Finished&) or
// on_experiment_finished(const Finished&). Events of other types are skipped, as readers must.
// A reporter that shows no example sections reads items with ItemParts::head.
// Throws krino::Error when the event is not a JSON object or a member has the wrong type.
template <class Handler>
void dispatch_event(const krino::Event& event, Handler& handler,
                    krino::event::ItemParts item_parts = krino::event::ItemParts::all) {
  const std::string_view raw = event.raw();
  // Events are read through spans, which assume valid JSON (the host writes every event). A line
  // without an event name is checked in full, so text that is not JSON is reported, not skipped.
  const std::size_t first = raw.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || raw[first] != '{') throw invalid_argument("event is not a JSON object");
  try {
    const krino::event::EventHead head = krino::event::read_event_head(raw);
    if (head.name.empty()) {
      boost::system::error_code ec;
      const boost::json::value parsed = krino::json::parse(raw, ec);
      if (ec || !parsed.is_object()) throw invalid_argument("event is not a JSON object");
      return;
    }
    krino::event::dispatch_event(head.kind, raw, handler, item_parts);
  } catch (const krino::event::DecodeError& e) {
    throw invalid_argument(std::string("event does not read as krino.event/1: ") + e.what());
  }
}

// The base of a reporter that writes one document when the experiment ends (csv, html, junit,
// markdown): every event goes to Derived's typed members through dispatch_event, and there is
// nothing to push on flush. Derived declares on_run_started, on_item, on_run_finished and
// on_experiment_finished. Not copyable: a reporter owns its files.
template <class Derived>
class DocumentReporter {
 public:
  void on_event(const krino::Event& event) { dispatch_event(event, static_cast<Derived&>(*this)); }
  // The document is written when the experiment finishes; nothing to push before.
  void flush() {}

  DocumentReporter(const DocumentReporter&) = delete;
  DocumentReporter& operator=(const DocumentReporter&) = delete;

 protected:
  DocumentReporter() = default;
  ~DocumentReporter() = default;
};

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
