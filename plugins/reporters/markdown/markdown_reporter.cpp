#include "markdown_reporter.hpp"

#include "summary_renderer.hpp"

#include <krino/report/dispatch.hpp>

#include <filesystem>

namespace krino::markdown {

MarkdownReporter::MarkdownReporter(const MarkdownOptions& options)
    : options_(options),
      target_(options.path, options.append ? report::ReportTarget::Mode::append : report::ReportTarget::Mode::replace),
      record_(options.max_failures, options.max_text_chars) {}

MarkdownReporter::~MarkdownReporter() {
  if (!finished_) report::finish_from_destructor("markdown", [this] { write("interrupted"); });
}

void MarkdownReporter::on_experiment_finished(const report::Finished& finished) {
  record_.on_experiment_finished(finished);
  write(finished.cancelled() ? "cancelled" : "completed");
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
