// The krino.server reporter: every item of the run goes to a krino results server while the run
// goes on (docs/plugins/server.md). The events become the server's calls: run_started creates a
// run, each item_finished is one ItemData in a batch, run_finished sets the run's status and prints
// what became of its items. What the server did not take is in the spool, and unless allow_loss
// the command then fails at its end (after every reporter has flushed), so CI notices.
//
// `krino upload` feeds the same reporter the lines of a file: a json report's events take the path
// above; spool records (krino.spool/1) are sent again as they were.
#ifndef KRINO_SERVER_SERVER_REPORTER_HPP
#define KRINO_SERVER_SERVER_REPORTER_HPP

#include "batch_sender.hpp"
#include "server_options.hpp"

#include <krino/plugin.hpp>
#include <krino/report/events.hpp>

#include <cstdio>
#include <memory>

namespace krino::server {

class ServerReporter {
 public:
  // Through the host's HTTP client. [main-thread]
  explicit ServerReporter(const krino::Config& config);
  // Through `transport` (tests); `output` gets the summaries.
  ServerReporter(ServerOptions options, Transport& transport, Sleeper sleeper = real_sleeper(),
                 std::FILE* output = stderr);
  // A run that never finished (the command failed) is closed as FAILED first.
  ~ServerReporter();
  ServerReporter(const ServerReporter&) = delete;
  ServerReporter& operator=(const ServerReporter&) = delete;

  void on_event(const krino::Event& event);
  // Waits for replayed records; after the experiment (or a replay) ended, fails with DATA_LOSS when
  // items were spooled or lost and allow_loss is off.
  void flush();

  // The typed events (report::dispatch_event).
  void on_run_started(const krino::event::RunStarted& started);
  void on_item(const krino::event::ItemFinished& item);
  void on_run_finished(const krino::event::Finished& finished);
  void on_experiment_finished(const krino::event::Finished& finished);

  const DeliveryCounts& totals() const { return totals_; }

 private:
  ServerReporter(ServerOptions options, std::unique_ptr<Transport> owned, Transport* borrowed, Sleeper sleeper,
                 std::FILE* output);
  void report(const std::string& what, const DeliveryCounts& counts);

  ServerOptions options_;
  std::unique_ptr<Transport> own_transport_;
  std::FILE* output_;
  ServerClient client_;
  std::unique_ptr<SpoolFile> spool_;
  BatchSender sender_;
  bool run_open_ = false;
  bool experiment_finished_ = false;
  bool replaying_ = false;
  bool loss_reported_ = false;
  DeliveryCounts totals_;
  std::string item_buffer_;
};

}  // namespace krino::server

#endif  // KRINO_SERVER_SERVER_REPORTER_HPP
