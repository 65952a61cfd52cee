// The krino.json reporter: every event, verbatim, as one line of a JSON Lines file.
#ifndef KRINO_JSONL_JSON_REPORTER_HPP
#define KRINO_JSONL_JSON_REPORTER_HPP

#include "json_options.hpp"
#include "jsonl_writer.hpp"

#include <krino/plugin.hpp>

namespace krino::jsonl {

class JsonReporter {
 public:
  // Opens the output file at once, so a bad path fails the experiment before it starts.
  explicit JsonReporter(const krino::Config& config) : JsonReporter(JsonOptions::from_config(config)) {}
  explicit JsonReporter(const JsonOptions& options) : writer_(options.path, options.append) {}

  // The event's own bytes: no parsing, no re-serialisation.
  void on_event(const krino::Event& event) { writer_.write_line(event.raw()); }
  void flush() { writer_.flush(); }

 private:
  JsonlWriter writer_;
};

}  // namespace krino::jsonl

#endif  // KRINO_JSONL_JSON_REPORTER_HPP
