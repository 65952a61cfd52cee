#include "server_reporter.hpp"

#include "spool_file.hpp"

#include <krino/event/item_data.hpp>
#include <krino/json_text.hpp>
#include <krino/report/dispatch.hpp>

namespace krino::server {
namespace {

SenderSettings sender_settings(const ServerOptions& options) {
  SenderSettings settings;
  settings.batch_size = static_cast<std::size_t>(options.batch_size);
  settings.batch_wait = std::chrono::milliseconds(options.batch_ms);
  settings.finish_timeout = std::chrono::milliseconds(options.finish_timeout_ms);
  return settings;
}

RetrySettings retry_settings(const ServerOptions& options) {
  RetrySettings settings;
  settings.retries = static_cast<int>(options.retries);
  settings.timeout_ms = static_cast<uint32_t>(options.timeout_ms);
  return settings;
}

}  // namespace

ServerReporter::ServerReporter(const krino::Config& config)
    : ServerReporter(ServerOptions::from_config(config), std::make_unique<HostTransport>(krino::detail::host()), nullptr,
                     real_sleeper(), stderr) {}

ServerReporter::ServerReporter(ServerOptions options, Transport& transport, Sleeper sleeper, std::FILE* output)
    : ServerReporter(std::move(options), nullptr, &transport, std::move(sleeper), output) {}

ServerReporter::ServerReporter(ServerOptions options, std::unique_ptr<Transport> owned, Transport* borrowed,
                               Sleeper sleeper, std::FILE* output)
    : options_(std::move(options)),
      own_transport_(std::move(owned)),
      output_(output),
      client_(options_.url, options_.api_key, retry_settings(options_), own_transport_ ? *own_transport_ : *borrowed,
              std::move(sleeper)),
      spool_(options_.spool.empty() ? nullptr : std::make_unique<SpoolFile>(options_.spool)),
      sender_(sender_settings(options_), client_, spool_.get(), [this](const std::string& message) {
        std::fprintf(output_, "krino: server reporter: %s\n", message.c_str());
      }) {}

ServerReporter::~ServerReporter() {
  if (!run_open_) return;
  try {
    totals_ += sender_.finish_run("FAILED").items;
  } catch (...) {
    // Nothing can be reported from a destructor; the sender's own destructor still spools.
  }
}

void ServerReporter::on_event(const krino::Event& event) {
  if (is_spool_line(event.raw())) {
    replaying_ = true;
    SpoolRecord record = read_spool_line(event.raw());
    // The options say where it goes now (krino upload fills them from the records when not told).
    record.target.server = options_.url;
    record.target.project = options_.project;
    if (!options_.experiment.empty()) record.target.experiment = options_.experiment;
    sender_.replay(std::move(record));
    return;
  }
  krino::report::dispatch_event(event, *this);
}

void ServerReporter::on_run_started(const krino::event::RunStarted& started) {
  if (run_open_) totals_ += sender_.finish_run("FAILED").items;
  RunTarget target;
  target.server = options_.url;
  target.project = options_.project;
  target.experiment = options_.experiment.empty() ? started.experiment_name : options_.experiment;
  if (target.experiment.empty()) target.experiment = "krino";
  target.metadata_json = krino::json::to_compact_json(started.experiment_metadata);
  // A server dataset's resolver names the dataset "name@N" (the version it read, `latest` made
  // concrete): the run's provenance.
  if (started.dataset.uri.rfind("dataset://", 0) == 0) target.dataset_version = started.dataset.name;
  sender_.start_run(std::move(target));
  run_open_ = true;
}

void ServerReporter::on_item(const krino::event::ItemFinished& item) {
  item_buffer_.clear();
  krino::event::append_item_data(item_buffer_, item);
  sender_.add_item(item_buffer_);
}

void ServerReporter::on_run_finished(const krino::event::Finished& finished) {
  if (!run_open_) return;
  run_open_ = false;
  const RunSummary summary = sender_.finish_run(finished.cancelled() ? "CANCELLED" : "SUCCESS");
  totals_ += summary.items;
  report("run " + summary.run_id, summary.items);
}

void ServerReporter::on_experiment_finished(const krino::event::Finished&) { experiment_finished_ = true; }

void ServerReporter::report(const std::string& what, const DeliveryCounts& counts) {
  std::string line = "krino: server reporter: " + what + ": ";
  line.append(std::to_string(counts.delivered)).append(" item(s) delivered to ").append(options_.url);
  if (counts.spooled > 0)
    line.append(", ").append(std::to_string(counts.spooled)).append(" spooled to '").append(options_.spool).append("'");
  if (counts.lost > 0) line.append(", ").append(std::to_string(counts.lost)).append(" lost");
  line += '\n';
  std::fputs(line.c_str(), output_);
}

void ServerReporter::flush() {
  if (replaying_) {
    const DeliveryCounts replayed = sender_.drain();
    totals_ = replayed;
    report("replay", replayed);
  }
  if (!(experiment_finished_ || replaying_) || loss_reported_ || options_.allow_loss) return;
  if (totals_.spooled == 0 && totals_.lost == 0) return;
  loss_reported_ = true;
  std::string message = std::to_string(totals_.spooled + totals_.lost) + " item(s) did not reach " + options_.url;
  if (totals_.spooled > 0) message.append(" (").append(std::to_string(totals_.spooled)).append(" kept in '").append(options_.spool).append("': send them with krino upload)");
  if (totals_.lost > 0) message.append(" (").append(std::to_string(totals_.lost)).append(" lost)");
  message.append("; set allow_loss to accept this");
  throw krino::Error(KRINO_DATA_LOSS, message);
}

}  // namespace krino::server
