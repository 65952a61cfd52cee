// What kind of krino.event/1 event a line holds, read from its first members without reading the
// rest, and the dispatch of a line to a typed handler. Header-only.
#ifndef KRINO_EVENT_EVENT_HEAD_HPP
#define KRINO_EVENT_EVENT_HEAD_HPP

#include <krino/event/item_finished.hpp>
#include <krino/event/run_finished.hpp>
#include <krino/event/run_started.hpp>
#include <krino/event/values.hpp>

#include <cstdint>
#include <optional>
#include <string_view>

namespace krino::event {

enum class EventKind { other, run_started, item_finished, run_finished, experiment_finished };

struct EventHead {
  EventKind kind = EventKind::other;
  std::string_view name;          // the "event" member as written ("" when absent)
  bool has_schema = false;        // "schema" is krino.event/1
  std::optional<uint32_t> run_index;  // null for experiment_finished
};

inline EventKind event_kind(std::string_view name) {
  if (name == "item_finished") return EventKind::item_finished;
  if (name == "run_started") return EventKind::run_started;
  if (name == "run_finished") return EventKind::run_finished;
  if (name == "experiment_finished") return EventKind::experiment_finished;
  return EventKind::other;
}

// krino writes "event", "schema" and "run_index" first, so this reads three members of its own
// events; a line from another writer is read until all three are found.
inline EventHead read_event_head(std::string_view line) {
  EventHead head;
  int seen = 0;
  krino::json::for_each_member(line, [&](std::string_view key, std::string_view value) {
    using krino::json::key_equals;
    if (key_equals(key, "event")) {
      if (value.size() >= 2 && value.front() == '"' && value.find('\\') == std::string_view::npos)
        head.name = value.substr(1, value.size() - 2);
      head.kind = event_kind(head.name);
      ++seen;
    } else if (key_equals(key, "schema")) {
      head.has_schema = value.size() == kSchema.size() + 2 && value.substr(1, kSchema.size()) == kSchema;
      ++seen;
    } else if (key_equals(key, "run_index")) {
      head.run_index = read_whole<uint32_t>(value, "run_index");
      ++seen;
    }
    return seen < 3;
  });
  return head;
}

// Reads `line` and calls the matching member of `handler`: on_run_started(const RunStarted&),
// on_item(const ItemFinished&), on_run_finished(const Finished&) or
// on_experiment_finished(const Finished&). Events of other kinds are skipped, as readers must.
// The same, for a line whose kind the caller has already read (read_event_head).
template <class Handler>
void dispatch_event(EventKind kind, std::string_view line, Handler& handler, ItemParts item_parts = ItemParts::all) {
  switch (kind) {
    case EventKind::item_finished:
      handler.on_item(read_item_finished(line, item_parts));
      return;
    case EventKind::run_started:
      handler.on_run_started(read_run_started(line));
      return;
    case EventKind::run_finished:
      handler.on_run_finished(read_finished(line));
      return;
    case EventKind::experiment_finished:
      handler.on_experiment_finished(read_finished(line));
      return;
    case EventKind::other:
      return;
  }
}

template <class Handler>
void dispatch_event(std::string_view line, Handler& handler, ItemParts item_parts = ItemParts::all) {
  dispatch_event(read_event_head(line).kind, line, handler, item_parts);
}

}  // namespace krino::event

#endif  // KRINO_EVENT_EVENT_HEAD_HPP
