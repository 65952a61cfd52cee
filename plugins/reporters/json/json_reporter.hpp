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

  // The event's own bytes: no parsing, no re-serialisation. Each line reaches the file as soon as
  // the host reports the event, so a crash or a `kill -9` leaves every finished item on disk (the
  // operating system keeps what write(2) was given; only a power cut needs the fsync at the end).
  void on_event(const krino::Event& event) {
    writer_.write_line(event.raw());
    writer_.flush();
  }
  // The host flushes at the end of every run and on Ctrl-C: the file then survives a power cut too.
  void flush() {
    writer_.flush();
    writer_.sync();
  }

 private:
  JsonlWriter writer_;
};

}  // namespace krino::jsonl

#endif  // KRINO_JSONL_JSON_REPORTER_HPP
