#include "markdown_reporter.hpp"

#include "summary_renderer.hpp"

#include <krino/report/events.hpp>

#include <cstdio>
#include <exception>
#include <filesystem>

namespace krino::markdown {

MarkdownReporter::MarkdownReporter(const MarkdownOptions& options)
    : options_(options),
      target_(options.path, options.append ? report::ReportTarget::Mode::append : report::ReportTarget::Mode::replace),
      record_(options.max_failures, options.max_text_chars) {}

MarkdownReporter::~MarkdownReporter() {
  if (finished_) return;
  try {
    write("interrupted");
  } catch (const std::exception& e) {
    // A destructor cannot report through the ABI; a summary silently missing would be worse.
    std::fprintf(stderr, "krino markdown reporter: %s\n", e.what());
  }
}

void MarkdownReporter::on_event(const krino::Event& event) {
  const boost::json::object& document = event.json();
  const std::string_view type = report::event_type(document);
  if (type == "item_finished") {
    record_.on_item(report::read_item_finished(document));
  } else if (type == "run_started") {
    record_.on_run_started(report::read_run_started(document));
  } else if (type == "run_finished") {
    record_.on_run_finished(report::read_finished(document));
  } else if (type == "experiment_finished") {
    const report::Finished finished = report::read_finished(document);
    record_.on_experiment_finished(finished);
    write(finished.cancelled() ? "cancelled" : "completed");
  }
}

void MarkdownReporter::write(const std::string& status) {
  finished_ = true;
  std::string text = render_summary(record_, status);
  report::ReportFile file(target_);
  // Appended to a file that already has text, the summary starts on a line of its own.
  if (target_.mode() == report::ReportTarget::Mode::append && !target_.is_stdout()) {
    std::error_code ec;
    if (std::filesystem::file_size(target_.path(), ec) > 0 && !ec) text.insert(0, "\n");
  }
  file.write(text);
  file.commit();
}

}  // namespace krino::markdown
